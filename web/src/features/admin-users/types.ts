/** A row of the admin users table (spec §3), as `GET /api/admin/users` returns it. */
export interface AdminUser {
  id: number;
  email: string | null;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  telegram_id: number | null;
  utm_source: string | null;
  credits: number;
  included_credits: number;
  /** Dollars, exact decimal string. */
  money_spent: string;
  /** Roubles, exact decimal string. */
  money_deposited: string;
  messages_count: number;
  role: string;
  tariff_id: number | null;
  tariff_name: string | null;
  created_at: string;
}

export interface AdminUsersResponse {
  users: AdminUser[];
  total: number;
}

export interface UtmStat {
  utm_source: string;
  count: number;
}

/** A tariff of the selects (`GET /api/admin/tariffs/all`). */
export interface TariffOption {
  id: number;
  name: string;
  monthly_price: string;
}

/**
 * `PUT /api/admin/users/{id}`: e-mail and role; tariff and a credit deposit go through billing.
 * No e-mail leaves it as it is (a Telegram-only account has none).
 */
export interface AdminUserUpdate {
  email?: string;
  role: 'admin' | 'user';
  tariff_id: number | null;
  depositAmount: number;
}

/** The filters of the screen, as URL and API parameters. */
export const USER_FILTERS = { email: '', username: '', utm_source: '', tariff_id: '' };
export type UserFilter = keyof typeof USER_FILTERS;

/** Columns the server sorts on (contracts ADMIN_USERS_SORT_FIELDS). */
export const USER_SORT_FIELDS = [
  'id',
  'email',
  'username',
  'first_name',
  'last_name',
  'utm_source',
  'credits',
  'money_spent',
  'money_deposited',
  'messages_count',
  'role',
  'tariff_name',
  'created_at',
] as const;

/** Spec §2, §4: 'Администратор' for admin, 'Пользователь' for any other value. */
export const roleLabel = (role: string) => (role === 'admin' ? 'Администратор' : 'Пользователь');
