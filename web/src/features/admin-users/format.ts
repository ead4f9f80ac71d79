const credits = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });
const roubles = new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'RUB', minimumFractionDigits: 2 });

/** Credits are shown rounded (spec §9). */
export const formatCredits = (value: number) => credits.format(Math.round(value));
/** Money paid in, in roubles. */
export const formatRoubles = (value: string) => roubles.format(Number(value));
/** Spec §3: an empty UTM source shows as 'organic'. */
export const utmLabel = (source: string | null) => source || 'organic';
/** Spec §3: an empty tariff shows as 'Не указан'. */
export const tariffLabel = (name: string | null) => name || 'Не указан';

type AdminUserNames = { username: string | null; first_name: string | null; last_name: string | null };

/** The username with the first and last name when present. */
export function displayName(user: AdminUserNames) {
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  if (user.username && name) return `@${user.username} (${name})`;
  return user.username ? `@${user.username}` : name;
}

/** How a user is named in confirmations and toasts: the e-mail, else the Telegram name, else the id. */
export function userTitle(user: AdminUserNames & { id: number; email: string | null }) {
  return user.email ?? (displayName(user) || `#${user.id}`);
}

/** Spec §5: the deposit is a number, minimum 0, step 1; anything else counts as 0. */
export function parseDeposit(text: string): number {
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
