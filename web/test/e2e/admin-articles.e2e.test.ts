import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { AdminArticle, AdminArticlesResponse } from '@gpt/contracts';
import type { RunningGateway } from '@gpt/gateway';
import type { Browser, Page } from 'playwright-core';
import type { ContentClient } from '../../../services/content/test/support';
import { screenshot } from '../support/browser';
import { png } from '../support/images';
import { type ContentSite, startContentSite } from '../support/content-site';
import { storeSession } from '../support/payers';
import { Tab } from '../support/tab';

let suite: ContentSite;
let api: ContentClient;
let site: RunningGateway;
let browser: Browser;
const tab = new Tab(
  () => browser,
  () => site.url,
);
let page: Page;

beforeAll(async () => {
  suite = await startContentSite();
  ({ api, site, browser } = suite);
});
afterAll(() => suite?.close());

/** A page signed in as the admin (the token both the gateway and the content service accept). */
async function adminPage(width = 1400) {
  page = await tab.open({ width, height: 1000 });
  page.setDefaultTimeout(10_000);
  await storeSession(page, site.url, {
    token: api.adminToken,
    user: { id: 1, email: 'admin@example.com', role: 'admin' },
  });
  await page.goto(`${site.url}/admin/articles`);
  await page.getByRole('table', { name: 'Статьи' }).getByText('Тренды искусственного интеллекта').waitFor();
  return page;
}

async function storedArticle(title: string): Promise<AdminArticle> {
  const { body } = await api.admin<AdminArticlesResponse>('GET', '/api/admin/articles?limit=50');
  return body.articles.find((article) => article.title === title)!;
}

/** An open dialog by its title (the shared dialogs carry no accessible name of their own). */
const dialogTitled = (title: string) =>
  page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

/** Pastes through the clipboard event the browser fires, with both an HTML and a text flavour. */
async function paste(p: Page, html: string, text: string) {
  await p.locator('.ProseMirror').evaluate(
    (element, data) => {
      const transfer = new DataTransfer();
      transfer.setData('text/html', data.html);
      transfer.setData('text/plain', data.text);
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    },
    { html, text },
  );
}

describe('admin articles in Chromium', () => {
  test('categories and tags are managed in their dialogs', async () => {
    await adminPage();
    await page.getByRole('button', { name: 'Категории' }).click();
    const categories = dialogTitled('Категории');
    await categories.getByRole('table').getByText('Руководства').waitFor();
    await categories.getByRole('button', { name: 'Добавить категорию' }).click();
    const form = dialogTitled('Новая категория');
    await form.getByRole('button', { name: 'Сохранить' }).click();
    for (const id of ['category-name', 'category-slug']) {
      await expect(form.locator(`#${id} ~ .invalid-feedback`).textContent()).resolves.toBe(
        'Заполните обязательные поля',
      );
    }
    await screenshot(page, 'admin-article-category-invalid');
    await form.getByLabel('Название *').fill('Обзоры моделей');
    await expect(form.getByLabel('Адрес страницы *').inputValue()).resolves.toBe('obzory-modeley');
    await form.getByLabel('Описание', { exact: true }).fill('Сравнения нейросетей');
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await categories.getByRole('cell', { name: 'Обзоры моделей' }).waitFor();
    await screenshot(page, 'admin-article-categories');

    await categories
      .getByRole('row', { name: /Руководства/ })
      .getByRole('button', { name: 'Удалить' })
      .click();
    const confirm = dialogTitled('Удаление категории');
    await confirm.getByText('Вы действительно хотите удалить категорию').waitFor();
    await confirm.getByRole('button', { name: 'Удалить' }).click();
    await categories.getByRole('cell', { name: 'Обзоры моделей' }).waitFor();
    await expect(categories.getByRole('cell', { name: 'Руководства' }).count()).resolves.toBe(0);
    await categories.getByRole('button', { name: 'Закрыть' }).first().click();

    await page.getByRole('button', { name: 'Теги' }).click();
    const tags = dialogTitled('Теги');
    await tags.getByRole('button', { name: 'Добавить тег' }).click();
    const tagForm = dialogTitled('Новый тег');
    await tagForm.getByLabel('Название *').fill('Новинки');
    await tagForm.getByRole('button', { name: 'Сохранить' }).click();
    await tags.getByRole('cell', { name: 'Новинки' }).waitFor();
    await expect(tags.getByRole('cell', { name: 'novinki' }).count()).resolves.toBe(1);
  });

  test('the admin writes an article with bold text and a link, publishes it, and it is on the public list', async () => {
    await api.createCategory({ name: 'Новости', slug: 'news' });
    await adminPage();
    await page.getByRole('button', { name: 'Создать статью' }).click();
    const dialog = dialogTitled('Новая статья');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    // Title, slug and content are required: the contract's message shows under each of them.
    for (const field of ['#article-title', '#article-slug', '.rte']) {
      await expect(dialog.locator(`${field} ~ .invalid-feedback`).textContent()).resolves.toBe(
        'Заполните обязательные поля',
      );
    }
    await screenshot(page, 'admin-article-invalid');

    await dialog.getByLabel('Заголовок *').fill('Обзор новых моделей');
    await expect(dialog.getByLabel('Адрес страницы *').inputValue()).resolves.toBe('obzor-novykh-modeley');
    await dialog.getByLabel('Анонс').fill('Что нового у языковых моделей');

    const editor = dialog.getByRole('textbox', { name: 'Содержание статьи' });
    await expect(editor.getAttribute('dir')).resolves.toBe('ltr');
    await editor.click();
    await page.keyboard.type('Это ');
    await dialog.getByRole('button', { name: 'Жирный' }).click();
    await page.keyboard.type('жирный');
    await dialog.getByRole('button', { name: 'Жирный' }).click();
    await page.keyboard.type(' текст, а вот ссылка');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.type('С отступом');
    // A bidirectional control typed (or dropped) into the text does not stay.
    await page.keyboard.insertText('\u2067');
    await expect(editor.evaluate((element) => /[\u2066-\u2069]/.test(element.textContent ?? ''))).resolves.toBe(false);
    await page.keyboard.press('Enter');
    await paste(page, '<b style="color:red">Жирная вставка</b>', 'Простая\u202E вставка');
    await dialog.getByLabel('Формат блока').selectOption({ label: 'Заголовок 2' });

    await editor.locator('p').first().click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    for (let i = 0; i < 'ссылка'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await dialog.getByRole('button', { name: 'Вставить ссылку' }).click();
    const linkDialog = dialogTitled('Вставить ссылку');
    await expect(linkDialog.getByLabel('Текст ссылки').inputValue()).resolves.toBe('ссылка');
    await linkDialog.getByLabel('Адрес').fill('javascript:alert(1)');
    await linkDialog.getByRole('button', { name: 'Вставить' }).click();
    await linkDialog
      .getByText('Ссылка должна начинаться с http://, https://, mailto: или / (страница сайта)')
      .waitFor();
    await linkDialog.getByLabel('Адрес').fill('https://example.com/page');
    await screenshot(page, 'admin-article-link-dialog');
    await linkDialog.getByRole('button', { name: 'Вставить' }).click();
    await linkDialog.waitFor({ state: 'detached' });
    await editor.locator('a[href="https://example.com/page"]', { hasText: 'ссылка' }).waitFor();

    await dialog.getByLabel('Статус').selectOption({ label: 'Опубликовано' });
    await dialog.getByLabel('Новости').check();
    await screenshot(page, 'admin-article-form');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Статья создана').waitFor();
    await page.getByRole('table', { name: 'Статьи' }).getByText('obzor-novykh-modeley').waitFor();
    await screenshot(page, 'admin-articles-table');

    const stored = await storedArticle('Обзор новых моделей');
    expect(stored).toMatchObject({
      status: 'published',
      slug: 'obzor-novykh-modeley',
      categories: [{ name: 'Новости' }],
    });
    expect(stored.content).toContain('<p>Это <strong>жирный</strong> текст, а вот ');
    expect(stored.content).toContain(
      '<a target="_blank" rel="noopener noreferrer nofollow" href="https://example.com/page">ссылка</a>',
    );
    expect(stored.content).toContain('<p>\u00a0\u00a0\u00a0\u00a0С отступом</p>');
    expect(stored.content).toContain('<h2>Простая вставка</h2>');
    expect(stored.content).not.toContain('Жирная вставка');
    expect(stored.content).not.toContain('dir=');
    expect(stored.content).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);

    const row = page.getByRole('row', { name: /obzor-novykh-modeley/ });
    await row.getByRole('button', { name: 'Просмотр' }).click();
    const view = dialogTitled('Просмотр статьи');
    await view.locator('.article-view-content strong', { hasText: 'жирный' }).waitFor();
    await expect(view.getByText('Опубликовано').count()).resolves.toBe(1);
    await view.getByRole('button', { name: 'Закрыть' }).last().click();

    await page.goto(`${site.url}/articles`);
    await page.getByRole('link', { name: 'Обзор новых моделей' }).click();
    await page.waitForURL(`${site.url}/articles/obzor-novykh-modeley`);
    await page.locator('.article-body strong', { hasText: 'жирный' }).waitFor();
    await expect(page.locator('.article-body a', { hasText: 'ссылка' }).getAttribute('href')).resolves.toBe(
      'https://example.com/page',
    );
  });

  test('a link is edited and removed in its dialog; an uploaded image shows on the public page', async () => {
    const article = await api.createArticle({
      title: 'Статья с картинкой',
      content: '<p>Начало и <a href="/articles">все статьи</a></p>',
    });
    await adminPage();
    await page
      .getByRole('row', { name: new RegExp(article.slug) })
      .getByRole('button', { name: 'Редактировать' })
      .click();
    const dialog = dialogTitled('Редактировать статью');
    const editor = dialog.getByRole('textbox', { name: 'Содержание статьи' });

    // An existing link opens pre-filled; a site-relative address is allowed.
    await editor.locator('a', { hasText: 'все статьи' }).click();
    await dialog.getByRole('button', { name: 'Вставить ссылку' }).click();
    let link = dialogTitled('Изменить ссылку');
    await expect(link.getByLabel('Адрес').inputValue()).resolves.toBe('/articles');
    await expect(link.getByLabel('Текст ссылки').inputValue()).resolves.toBe('все статьи');
    await link.getByLabel('Адрес').fill('mailto:info@example.com');
    await link.getByLabel('Текст ссылки').fill('напишите нам');
    await link.getByRole('button', { name: 'Сохранить' }).click();
    await link.waitFor({ state: 'detached' });
    await editor.locator('a[href="mailto:info@example.com"]', { hasText: 'напишите нам' }).waitFor();
    await expect(editor.getByText('все статьи').count()).resolves.toBe(0);

    await editor.locator('a', { hasText: 'напишите нам' }).click();
    await dialog.getByRole('button', { name: 'Вставить ссылку' }).click();
    link = dialogTitled('Изменить ссылку');
    await link.getByRole('button', { name: 'Убрать ссылку' }).click();
    await link.waitFor({ state: 'detached' });
    await editor.getByText('напишите нам').waitFor();
    await expect(editor.locator('a').count()).resolves.toBe(0);

    // The image: required file, the size and the type refused in Russian, then uploaded and inserted.
    await page.keyboard.press('End');
    await dialog.getByRole('button', { name: 'Вставить изображение' }).click();
    const image = dialogTitled('Вставить изображение');
    await image.getByRole('button', { name: 'Загрузить и вставить' }).click();
    await image.getByText('Выберите файл изображения').waitFor();
    // The picker speaks Russian whatever the browser's language: «Выбрать файл», «Файл не выбран».
    await image.getByText('Выбрать файл', { exact: true }).waitFor();
    await image.getByText('Файл не выбран').waitFor();
    const file = image.getByLabel('Файл');
    await file.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
    await image.getByText('Файл слишком большой (не больше 5 МБ)').waitFor();
    await file.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('<svg></svg>') });
    await image.getByLabel('Описание изображения').fill('Схема работы бота');
    await image.getByRole('button', { name: 'Загрузить и вставить' }).click();
    await image.getByText('Изображение должно быть в формате PNG, JPEG, WebP или GIF').waitFor();
    await file.setInputFiles({ name: 'scheme.png', mimeType: 'image/png', buffer: png(320, 160) });
    await image.getByText('scheme.png').waitFor();
    await screenshot(page, 'admin-article-image-dialog');
    await image.getByRole('button', { name: 'Загрузить и вставить' }).click();
    await image.waitFor({ state: 'detached' });
    await editor.locator('img[alt="Схема работы бота"]').waitFor();
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Статья сохранена').waitFor();

    const stored = (await api.admin<{ article: AdminArticle }>('GET', `/api/admin/articles/${article.id}`)).body
      .article;
    expect(stored.content).toMatch(/<img src="\/api\/article_media\/[a-f0-9]{32}" alt="Схема работы бота" \/>/);
    expect(stored.content).not.toContain('<a');

    await page.goto(`${site.url}/articles/${article.slug}`);
    const shown = page.locator('.article-body img[alt="Схема работы бота"]');
    await shown.waitFor();
    await page.waitForFunction(
      (element) => element instanceof HTMLImageElement && element.complete && element.naturalWidth === 320,
      await shown.elementHandle(),
    );
    await screenshot(page, 'article-with-image');
  });

  test.each([800, 390])('at %i px the link and image dialogs fit the screen over the article form', async (width) => {
    await adminPage(width);
    await page.getByRole('button', { name: 'Создать статью' }).click();
    const form = dialogTitled('Новая статья');
    for (const [button, title] of [
      ['Вставить ссылку', 'Вставить ссылку'],
      ['Вставить изображение', 'Вставить изображение'],
    ] as const) {
      await form.getByRole('button', { name: button }).click();
      const dialog = dialogTitled(title);
      const box = (await dialog.locator('.modal-content').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      // Its own backdrop sits over the article form: the form cannot be clicked through it.
      const onTop = await dialog.locator('.modal-content').evaluate((content) => {
        const box = content.getBoundingClientRect();
        const hit = document.elementFromPoint(box.x + box.width / 2, box.y + 10);
        return content.contains(hit);
      });
      expect(onTop).toBe(true);
      await screenshot(page, `admin-article-${button === 'Вставить ссылку' ? 'link' : 'image'}-dialog-${width}`);
      await dialog.getByRole('button', { name: 'Отмена' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    await form.waitFor();
  });

  test('edit keeps the fields; delete asks first and removes the row', async () => {
    const article = await api.createArticle({ title: 'Статья для удаления', excerpt: 'Анонс для правки' });
    await adminPage();
    const row = page.getByRole('row', { name: new RegExp(article.slug) });
    await row.getByRole('button', { name: 'Редактировать' }).click();
    const dialog = dialogTitled('Редактировать статью');
    await expect(dialog.getByLabel('Анонс').inputValue()).resolves.toBe('Анонс для правки');
    await dialog.getByLabel('Заголовок *').fill('Статья для удаления (правка)');
    await expect(dialog.getByLabel('Адрес страницы *').inputValue()).resolves.toBe(article.slug);
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Статья сохранена').waitFor();
    await page.getByRole('cell', { name: 'Статья для удаления (правка)' }).waitFor();

    await row.getByRole('button', { name: 'Удалить' }).click();
    const confirm = dialogTitled('Удаление статьи');
    await confirm.getByText('Вы действительно хотите удалить статью').waitFor();
    await confirm.getByRole('button', { name: 'Удалить' }).click();
    await page.getByText('Статья удалена').waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await api.admin('GET', `/api/admin/articles/${article.id}`)).status).toBe(404);
  });
});
