import type { Page } from 'playwright-core';

export type Role = 'visitor' | 'user' | 'admin';

/** A screen of the site: where it is, who sees it, and what shows that it has loaded its data. */
export interface Screen {
  name: string;
  path: string;
  /** The text of an element that appears once the screen has what it loads. */
  ready: string;
}

/** Every screen of the site by the role that meets it (docs/product.md, Screens route table). */
export function screensOf(role: Role, article: { slug: string; title: string }): Screen[] {
  const shared: Screen[] = [
    { name: 'home', path: '/', ready: 'Тарифы' },
    { name: 'pricing', path: '/pricing', ready: 'Premium' },
    { name: 'faq', path: '/faq', ready: 'Часто задаваемые вопросы' },
    { name: 'articles', path: '/articles', ready: article.title },
    { name: 'article', path: `/articles/${article.slug}`, ready: 'Поделиться в Telegram' },
    { name: 'offer', path: '/offer', ready: 'Публичная оферта' },
    { name: 'privacy', path: '/privacy', ready: 'Согласие на обработку персональных данных' },
    { name: 'contact', path: '/contact', ready: 'Обратная связь' },
    { name: 'link-success', path: '/link-success', ready: 'Аккаунты успешно связаны' },
    { name: 'link-error', path: '/link-error', ready: 'Не удалось связать аккаунты' },
    { name: 'not-found', path: '/no/such/page', ready: 'Страница не найдена' },
  ];
  if (role === 'visitor') {
    return [
      ...shared,
      { name: 'login', path: '/login', ready: 'Забыли пароль?' },
      { name: 'register', path: '/register', ready: 'Регистрация' },
      { name: 'forgot-password', path: '/forgot-password', ready: 'Восстановление пароля' },
      { name: 'reset-password', path: '/reset-password/some-token', ready: 'Новый пароль' },
    ];
  }
  const account: Screen = { name: 'dashboard', path: '/dashboard', ready: 'Основная информация' };
  if (role === 'user') return [...shared, account];
  return [
    ...shared,
    account,
    { name: 'admin-dashboard', path: '/admin', ready: 'Последнее сообщение' },
    { name: 'admin-users', path: '/admin/users', ready: 'Применить фильтры' },
    { name: 'admin-articles', path: '/admin/articles', ready: 'Создать статью' },
    { name: 'admin-models', path: '/admin/models', ready: 'gpt-4o-mini' },
    { name: 'admin-tariffs', path: '/admin/tariffs', ready: 'Premium' },
    { name: 'admin-modes', path: '/admin/modes', ready: 'Переводчик' },
    { name: 'admin-history', path: '/admin/history', ready: 'Успешно' },
    { name: 'admin-payments', path: '/admin/payments', ready: 'Ожидает оплаты' },
    { name: 'admin-sysvals', path: '/admin/sysvals', ready: 'credit_markup' },
    { name: 'admin-promo-codes', path: '/admin/promo-codes', ready: 'Добавить промокод' },
    { name: 'admin-broadcasts', path: '/admin/broadcasts', ready: 'Новая рассылка' },
  ];
}

/**
 * Latin-only words a Russian interface may show: brand and product names, the tariffs' names (data
 * the spec names) and abbreviations Russian readers use as they are.
 */
export const LATIN_ALLOWED = new Set([
  'GPT',
  'Telegram',
  'FAQ',
  'Email',
  'email',
  'E-mail',
  'e-mail',
  'ID',
  'UTM',
  'URL',
  'SEO',
  'HTML',
  'JSON',
  'CSV',
  'Base',
  'Premium',
  'Elite',
  'OpenAI',
  'YooKassa',
  'VPN',
  // «Экспорт для Excel»: the program the file is made for.
  'Excel',
  // «файлы cookie», as Russian legal texts say.
  'cookie',
]);

/**
 * The words of the page a person reads or hears (visible text, and the accessible names and
 * placeholders of visible elements) that are Latin letters only, not allowed and not data.
 */
export function latinOnlyWords(page: Page, allowed: ReadonlySet<string> = LATIN_ALLOWED): Promise<string[]> {
  return page.evaluate(
    (allowedWords) => {
      const visible = (element: Element) => (element as HTMLElement).checkVisibility?.() ?? true;
      const attributes = [...document.querySelectorAll('[aria-label], [placeholder], [title], img[alt]')]
        .filter(visible)
        .flatMap((element) => ['aria-label', 'placeholder', 'title', 'alt'].map((name) => element.getAttribute(name)));
      const words = [document.body.innerText, ...attributes]
        .filter((text): text is string => Boolean(text))
        .flatMap((text) => text.split(/\s+/))
        .map((word) => word.replace(/^[«»"'“”„([{<,.:;!?…—–-]+|[«»"'“”„)\]}>,.:;!?…—–-]+$/g, ''))
        // Words with digits, addresses, paths and identifiers (model names, e-mails, URLs, keys) are data.
        .filter((word) => /^[A-Za-z]+(-[A-Za-z]+)*$/.test(word));
      // Identifiers shown as they are stored (slugs, UTM sources) are marked as data: <code> or translate="no".
      const data = new Set(
        [...document.querySelectorAll('code, [translate="no"]')].flatMap((element) =>
          (element.textContent ?? '').split(/\s+/),
        ),
      );
      return [...new Set(words.filter((word) => !allowedWords.includes(word) && !data.has(word)))];
    },
    [...allowed],
  );
}
