import { beforeEach, describe, expect, test } from '@jest/globals';
import { startTestStack } from '@gpt/deploy/testing';
import { uniqueName } from '@gpt/kit/testing';
import { screenshot } from '../support/browser';
import { browserSuite, signInAsAdmin } from '../support/browser-suite';

const site = browserSuite(() =>
  startTestStack({ ARGON2_MEMORY_KIB: '8192', ARGON2_TIME_COST: '1', RATE_LIMIT_LOGIN_POINTS: '1000' }),
);

beforeEach(() => signInAsAdmin(site));

/** The toast saying `text` of the mode `mode` (the one before may still be showing). */
const toast = (text: string, mode: string) =>
  site.page.locator('.toast').filter({ hasText: text }).filter({ hasText: mode });
const invalidFeedback = () => site.page.locator('.invalid-feedback:visible');
const rows = () => site.page.locator('table[aria-label="Режимы"] tbody tr');
const rowOf = (text: string) => rows().filter({ hasText: text });

describe('/admin/modes', () => {
  test('the seeded modes in order, search, create with the validation texts, view, edit, the default kept, delete', async () => {
    await site.page.goto(`${site.stack.url}/admin`);
    await site.page.getByRole('link', { name: 'Режимы' }).click();
    await site.page.waitForURL(/\/admin\/modes$/);
    await rowOf('Ассистент').waitFor();
    await expect(rowOf('Ассистент').getByText('По умолчанию').isVisible()).resolves.toBe(true);
    await expect(rows().locator('td:nth-child(3)').allTextContents()).resolves.toEqual([
      '🤖Ассистент',
      '🌍Переводчик',
      '✍️Редактор текстов',
      '💻Программист',
      '🎓Репетитор',
    ]);
    await screenshot(site.page, 'admin-modes');

    await site.page.getByLabel('Поиск').fill('ПЕРЕВОД');
    await site.page.waitForURL(/q=/);
    await rows().filter({ hasText: 'Программист' }).waitFor({ state: 'detached' });
    await expect(rows().count()).resolves.toBe(1);
    await site.page.getByRole('button', { name: 'Сбросить' }).click();
    await rowOf('Программист').waitFor();

    await site.page.getByRole('button', { name: 'Добавить режим' }).click();
    const dialog = site.page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Новый режим' }).waitFor();
    const save = dialog.getByRole('button', { name: 'Сохранить' });
    await expect(save.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Название').fill(' ');
    await dialog.getByLabel('Эмодзи').fill('');
    await dialog.getByLabel('Системный промпт').fill('я'.repeat(4001));
    await dialog.getByLabel('Режим по умолчанию').check();
    await dialog.getByLabel('Активен').uncheck();
    await expect(invalidFeedback().allTextContents()).resolves.toEqual([
      'Укажите название режима',
      'Укажите эмодзи режима',
      'Системный промпт должен быть не длиннее 4 000 символов',
    ]);
    await expect(dialog.getByText('4 001 из 4 000 символов').isVisible()).resolves.toBe(true);
    await screenshot(site.page, 'admin-mode-validation');

    const name = `Юрист ${uniqueName('m').slice(-6)}`;
    await dialog.getByLabel('Название').fill(name);
    await dialog.getByLabel('Эмодзи').fill('⚖️');
    await dialog.getByLabel('Краткое описание').fill('Объясняет законы простыми словами');
    await dialog.getByLabel('Системный промпт').fill('Ты — юрист. Отвечай со ссылками на статьи закона.');
    await dialog.getByLabel('Порядок').fill('15');
    await expect(invalidFeedback().allTextContents()).resolves.toEqual(['Режим по умолчанию должен быть активным']);
    await expect(save.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Режим по умолчанию').uncheck();
    await dialog.getByLabel('Активен').check();
    await expect(invalidFeedback().count()).resolves.toBe(0);
    await save.click();
    await toast('Режим добавлен', name).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const row = rowOf(name);
    await row.waitFor();
    await expect(rows().nth(1).textContent()).resolves.toContain(name);

    await row.getByRole('button', { name: 'Просмотр' }).click();
    await site.page.getByRole('heading', { name: 'Информация о режиме' }).waitFor();
    await expect(dialog.getByText('Ты — юрист. Отвечай со ссылками на статьи закона.').isVisible()).resolves.toBe(true);
    await screenshot(site.page, 'admin-mode-view');
    await dialog.getByRole('button', { name: 'Закрыть' }).first().click();
    await dialog.waitFor({ state: 'hidden' });

    await row.getByRole('button', { name: 'Редактировать' }).click();
    await dialog.getByRole('heading', { name: 'Редактировать режим' }).waitFor();
    await dialog.getByLabel('Название').fill('Переводчик');
    await save.click();
    await dialog.getByText('Режим «Переводчик» уже существует').waitFor();
    await dialog.getByLabel('Название').fill(name);
    await dialog.getByLabel('Режим по умолчанию').check();
    await save.click();
    await toast('Режим сохранён', name).waitFor();
    await row.getByText('По умолчанию').waitFor();
    await rowOf('Ассистент').getByText('По умолчанию').waitFor({ state: 'detached' });

    await row.getByRole('button', { name: 'Удалить' }).click();
    await dialog.getByRole('button', { name: 'Удалить', exact: true }).click();
    await dialog.getByText('Режим по умолчанию нельзя удалить').waitFor();
    await dialog.getByRole('button', { name: 'Отмена' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await rowOf('Ассистент').getByRole('button', { name: 'Редактировать' }).click();
    await dialog.getByLabel('Режим по умолчанию').check();
    await save.click();
    await toast('Режим сохранён', 'Ассистент').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await row.getByRole('button', { name: 'Удалить' }).click();
    await dialog.getByText(`Вы действительно хотите удалить режим «${name}»?`).waitFor();
    await dialog.getByRole('button', { name: 'Удалить', exact: true }).click();
    await toast('Режим удалён', name).waitFor();
    await row.waitFor({ state: 'detached' });
  }, 90_000);
});
