/** The filters of the screen, as URL and API parameters. */
export const USER_FILTERS = { email: '', username: '', utm_source: '', tariff_id: '' };
export type UserFilter = keyof typeof USER_FILTERS;

/** docs/product.md, Screens and States: 'Администратор' for admin, 'Пользователь' for any other value. */
export const roleLabel = (role: string) => (role === 'admin' ? 'Администратор' : 'Пользователь');
