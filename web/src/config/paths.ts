/** Every route of the site, in one place (docs/product.md, Screens route table). */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: (token: string) => `/reset-password/${encodeURIComponent(token)}`,
  pricing: '/pricing',
  faq: '/faq',
  articles: '/articles',
  article: (slug: string) => `/articles/${encodeURIComponent(slug)}`,
  offer: '/offer',
  privacy: '/privacy',
  contact: '/contact',
  linkSuccess: '/link-success',
  linkError: '/link-error',
  confirmEmail: '/confirm-email',
  link: (token: string) => `/link/${encodeURIComponent(token)}`,
  dashboard: '/dashboard',
  chat: '/chat',
  /** A conversation of the web chat; with a message id it opens at that message (a search hit). */
  chatConversation: (id: string, messageId?: string) =>
    `/chat/${encodeURIComponent(id)}${messageId ? `?${new URLSearchParams({ message: messageId }).toString()}` : ''}`,
  telegramSignIn: (token: string) => `/telegram-sign-in/${encodeURIComponent(token)}`,
  admin: {
    root: '/admin',
    users: '/admin/users',
    articles: '/admin/articles',
    models: '/admin/models',
    tariffs: '/admin/tariffs',
    modes: '/admin/modes',
    history: '/admin/history',
    payments: '/admin/payments',
    subscriptions: '/admin/subscriptions',
    sysvals: '/admin/sysvals',
    audit: '/admin/audit',
    promoCodes: '/admin/promo-codes',
    support: '/admin/support',
    broadcasts: '/admin/broadcasts',
  },
} as const;

/** The admin area is recognised by paths starting with /admin (docs/product.md, Access). */
export function isAdminPath(pathname: string): boolean {
  return pathname.startsWith('/admin');
}

/** Appends `?link_token=` when a link token is being carried through login or registration. */
export function withLinkToken(path: string, linkToken: string | null | undefined): string {
  if (!linkToken) return path;
  return `${path}?${new URLSearchParams({ link_token: linkToken }).toString()}`;
}
