import { personName, type PersonNames } from '@gpt/contracts';

const credits = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });

/** Credits are shown rounded (docs/product.md, Limits). */
export const formatCredits = (value: number) => credits.format(Math.round(value));
/** Money paid in, in roubles. */
export { formatRoubles } from '@gpt/contracts';
/** The users without a UTM source: the API's filter value and chip for them is 'organic' (docs/product.md, Data). */
const NO_SOURCE = 'organic';
/** An empty UTM source (the API's 'organic') reads «Без метки». */
export const utmLabel = (source: string | null) => (!source || source === NO_SOURCE ? 'Без метки' : source);
/** docs/product.md, Data: an empty tariff shows as 'Не указан'. */
export const tariffLabel = (name: string | null) => name || 'Не указан';

/** How a user is named in confirmations and toasts: the e-mail, else the person's name, else the id. */
export function userTitle(user: PersonNames & { id: number; email: string | null }) {
  return user.email ?? (personName(user) || `#${user.id}`);
}
