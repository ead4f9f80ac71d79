import type { AdminUserRow, BotUser, UserProfile } from '@gpt/contracts';
import type { User } from '../data/users.repository';

const telegramIdOf = (user: User) => (user.telegramId === null ? null : Number(user.telegramId));

/** The personal-account user (docs/product.md, Data): also the `user` of login and register answers. */
export function toProfile(user: User): UserProfile {
  return {
    id: user.id,
    email: user.email ?? '',
    role: user.role,
    created_at: user.createdAt.toISOString(),
    tariff_id: user.balance.tariffId,
    tariff_name: user.balance.tariffName,
    credits: user.balance.credits,
    included_credits: user.balance.includedCredits,
    held_credits: user.balance.heldCredits,
    available_credits: user.balance.credits + user.balance.includedCredits - user.balance.heldCredits,
    welcome_credits: user.balance.welcomeCredits,
    email_confirmed: user.emailConfirmedAt !== null,
    monthly_price: user.balance.monthlyPrice,
    tariff_end_date: user.balance.tariffEndDate?.toISOString() ?? null,
    telegram_linked: user.telegramId !== null,
    telegram_id: telegramIdOf(user),
    telegram_username: user.telegramUsername,
    telegram_email: user.telegramEmail,
  };
}

/** A row of the admin users table (docs/product.md, Data), with how the list names the user's inviter. */
export function toAdminRow(user: User, referrer: string | null): AdminUserRow {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    first_name: user.firstName,
    last_name: user.lastName,
    telegram_id: telegramIdOf(user),
    telegram_blocked_at: user.telegramBlockedAt?.toISOString() ?? null,
    utm_source: user.utmSource,
    credits: user.balance.credits,
    included_credits: user.balance.includedCredits,
    money_spent: user.usage.moneySpent,
    money_deposited: user.balance.moneyDeposited,
    messages_count: user.usage.messagesCount,
    role: user.role,
    tariff_id: user.balance.tariffId,
    tariff_name: user.balance.tariffName,
    referred_by: user.referredBy,
    referrer,
    created_at: user.createdAt.toISOString(),
  };
}

/** The user as the Telegram bot sees it. */
export function toBotUser(user: User & { telegramId: string }): BotUser {
  return {
    id: user.id,
    telegram_id: Number(user.telegramId),
    username: user.username,
    first_name: user.firstName,
    last_name: user.lastName,
    utm_source: user.utmSource,
    language_code: user.telegramLanguage,
    email: user.email,
    telegram_email: user.telegramEmail,
    role: user.role,
    web_linked: user.email !== null,
    created_at: user.createdAt.toISOString(),
  };
}
