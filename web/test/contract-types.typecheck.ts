/**
 * Typecheck fixture, part of `npm run typecheck` (never run by jest): the web app's request, response
 * and form types are the contracts', so a field renamed or dropped in contracts fails the web build.
 * Each `@ts-expect-error` is a drift the compiler must refuse; were one accepted, the unused directive
 * would fail the typecheck instead.
 */
import { ADMIN_USERS_SORT_FIELDS, type AdminUserRow, type RegisterForm, type UserProfile } from '@gpt/contracts';
import type { DefaultValues } from 'react-hook-form';
import type { z } from 'zod';

import type { ModelBody } from '@/features/admin-models/api/save-model';
import type { TariffBody } from '@/features/admin-tariffs/api/save-tariff';
import type { SessionUser } from '@/lib/session/types';

// @ts-expect-error a users-table row lacking a field of AdminUserRow (here `money_spent`) is refused
export const rowMissingAField: AdminUserRow = {
  id: 1,
  email: null,
  username: null,
  first_name: null,
  last_name: null,
  telegram_id: null,
  utm_source: null,
  credits: 0,
  included_credits: 0,
  money_deposited: '0',
  messages_count: 0,
  role: 'user',
  tariff_id: null,
  tariff_name: null,
  created_at: '2026-01-01T00:00:00.000Z',
};

export const tariffWithAStrayField: TariffBody = {
  name: 'Premium',
  description: null,
  monthly_price: '350',
  credits_per_ruble: 10,
  included_credits: 0,
  // @ts-expect-error a field TariffInput does not have
  monthly_fee: '350',
};

export const modelWithAWrongType: ModelBody = {
  model: 'gpt-4o',
  description: null,
  // @ts-expect-error prices are numbers or decimal strings, never booleans
  input_price_per_1m: true,
  output_price_per_1m: 10,
};

export const sessionWithAnUnknownRole: SessionUser = {
  email: 'a@b.ru',
  // @ts-expect-error the session keeps the contracts' roles only
  role: 'owner',
};

/** The profile a signed-in user gets is a session user as it is. */
export const profileIsASessionUser = (profile: UserProfile): SessionUser => profile;

/** What the registration form starts from (`useContractForm(RegisterForm, …)`). */
export const registerFormWithAnOldName: DefaultValues<z.input<typeof RegisterForm>> = {
  email: '',
  password: '',
  confirmPassword: '',
  // @ts-expect-error the registration form's checkbox is `agreement`, as in RegisterForm
  agree: true,
};

// @ts-expect-error the users screen sorts only on the contract's columns
export const unknownSortField: (typeof ADMIN_USERS_SORT_FIELDS)[number] = 'password_hash';
