import type { InsufficientCreditsDetail } from '@gpt/contracts';
import { AppError, badRequest, conflict, forbidden, notFound, serviceUnavailable, tooManyRequests } from '@gpt/kit';

/** A moment as a person in Moscow reads it: 01.12.2026, 10:00 (МСК). */
function formatMoscowTime(date: Date): string {
  const text = date.toLocaleString('ru-RU', {
    timeZone: 'Europe/Moscow',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  return `${text} (МСК)`;
}

/** A day as a person in Moscow reads it: 27 декабря. */
const formatMoscowDay = (date: Date): string =>
  date.toLocaleDateString('ru-RU', { timeZone: 'Europe/Moscow', day: 'numeric', month: 'long' });

/** The billing service's refusals, each with the sentence a person reads. */
export const billingErrors = {
  userNotFound: () => notFound('Пользователь не найден', 'user_not_found'),
  /** Billing learns users from auth's events: one registered a moment ago may not have arrived yet. */
  userNotReady: () =>
    serviceUnavailable(
      'Профиль пользователя ещё не готов к оплате, повторите через несколько секунд',
      'user_not_ready',
    ),
  tariffNotFound: () => notFound('Тариф не найден', 'tariff_not_found'),
  tariffInactive: () => conflict('Этот тариф сейчас недоступен для покупки', 'tariff_inactive'),
  tariffFree: () => conflict('Бесплатный тариф не нужно покупать', 'tariff_free'),
  tariffNameTaken: () => conflict('Тариф с таким названием уже существует', 'tariff_name_taken'),
  tariffInUse: (holders: number) =>
    conflict(
      `Тариф нельзя удалить: он назначен пользователям (${holders}). Отключите его вместо удаления.`,
      'tariff_in_use',
    ),
  tariffDefault: () => conflict('Базовый тариф нельзя удалить: на нём начинают все пользователи', 'tariff_default'),
  tariffHasPayments: () =>
    conflict('Тариф нельзя удалить: по нему есть платежи. Отключите его вместо удаления.', 'tariff_has_payments'),
  tariffHasPromoCodes: (codes: number) =>
    conflict(
      `Тариф нельзя удалить: его дают промокоды (${codes}). Отключите его вместо удаления.`,
      'tariff_has_promo_codes',
    ),
  promoNotFound: () => notFound('Промокод не найден', 'promo_not_found'),
  promoNotStarted: (from: Date) =>
    conflict(`Промокод начнёт действовать ${formatMoscowTime(from)}`, 'promo_not_started'),
  promoExpired: () => new AppError('Срок действия промокода истёк', 'promo_expired', 410),
  promoUsedUp: () => new AppError('Промокод больше недоступен: все активации уже использованы', 'promo_used_up', 410),
  promoAlreadyUsed: () => conflict('Вы уже активировали этот промокод', 'promo_already_used'),
  promoTariffBelow: (running: string, until: Date, offered: string) =>
    conflict(
      `У вас уже тариф ${running} до ${formatMoscowDay(until)}. Промокод на тариф «${offered}» можно активировать после его окончания.`,
      'promo_tariff_below',
    ),
  promoCodeTaken: () => conflict('Промокод с таким кодом уже существует', 'promo_code_taken'),
  promoUsed: () =>
    conflict('Промокод уже использовали: удалить его нельзя, его можно только отключить', 'promo_code_used'),
  promoMaxBelowUsed: (used: number) =>
    conflict(`Число использований не может быть меньше уже сделанных (${used})`, 'promo_max_below_used'),
  paymentNotFound: () => notFound('Платёж не найден', 'payment_not_found'),
  paymentNotWaitingForEmail: () => conflict('Платёж не ожидает email', 'payment_not_waiting_for_email'),
  tooManyPayments: (retryAfterSec: number) =>
    tooManyRequests('Слишком много платежей, попробуйте позже', retryAfterSec),
  sandboxPaymentForbidden: () =>
    forbidden(
      'Подтвердить платёж может только тот, кто его начал: откройте ссылку на оплату из бота или войдите в аккаунт',
      'sandbox_payment_forbidden',
    ),
  paymentAlreadyDecided: () => conflict('Платёж уже завершён', 'payment_already_decided'),
  providerFailed: () =>
    new AppError('Не удалось создать платёж у платёжного сервиса, попробуйте позже', 'payment_provider_error', 502),
  providerUnavailable: () =>
    serviceUnavailable('Платёжный сервис недоступен, повторите позже', 'payment_provider_unavailable'),
  /** A notification that does not match what the provider says of the payment. */
  unknownPayment: () => badRequest('Платёж не найден у платёжного сервиса', 'unknown_payment'),
  paymentMismatch: () => badRequest('Данные платежа не совпадают с платежом магазина', 'payment_mismatch'),
  untrustedNotificationSource: () =>
    forbidden('Уведомление пришло с адреса, которому не доверяем', 'untrusted_notification_source'),
  packageNotOffered: () => badRequest('Такого пакета пополнения нет', 'package_not_offered'),
  starInvoiceNotFound: () => notFound('Счёт в звёздах не найден или не совпадает с оплатой', 'star_invoice_not_found'),
  refundNotAllowed: () => conflict('Вернуть можно только успешный платёж', 'refund_not_allowed'),
  refundSpent: (missing: number) =>
    conflict(
      `Нельзя вернуть платёж: пользователь уже потратил часть кредитов, не хватает ${missing.toLocaleString('ru-RU')} кредитов`,
      'refund_credits_spent',
    ),
  refundRefused: (reason: string) =>
    new AppError(`Платёжный сервис отказал в возврате: ${reason}`.slice(0, 500), 'refund_refused', 502),
  insufficientCredits: (available: number) =>
    new AppError('Недостаточно кредитов', 'insufficient_credits', 402, [
      { available_credits: available } satisfies InsufficientCreditsDetail,
    ]),
  holdNotFound: () => notFound('Резерв не найден', 'hold_not_found'),
  adjustmentOfAnotherUser: () => conflict('Это действие уже применено к другому пользователю'),
  userIdMismatch: () => badRequest('user_id в теле не совпадает с адресом', 'user_id_mismatch'),
  adminMismatch: () => forbidden('admin_id не совпадает с администратором из токена', 'admin_mismatch'),
  subscriptionNotFound: () => notFound('Подписка не найдена', 'subscription_not_found'),
  subscriptionExists: () =>
    conflict(
      'У вас уже есть автопродление тарифа: отмените его в личном кабинете, чтобы оформить другое',
      'subscription_exists',
    ),
  consentOutdated: () =>
    badRequest('Текст согласия на автопродление изменился: обновите страницу и подтвердите заново', 'consent_outdated'),
  subscriptionNotRenewing: () => conflict('Автопродление этой подписки уже отменено', 'subscription_not_renewing'),
  subscriptionNotCard: () =>
    conflict('Эту подписку оплачивают звёздами: её отменяют и продлевает Telegram', 'subscription_not_card'),
  telegramCancelFailed: (reason: string) =>
    new AppError(`Telegram не отменил подписку за звёзды: ${reason}`.slice(0, 500), 'telegram_cancel_failed', 502),
  subscriptionNotStars: () => conflict('Это подписка с оплатой картой', 'subscription_not_stars'),
  starSubscriptionTooDear: (max: number) =>
    conflict(
      `Подписка за звёзды стоит не больше ${max.toLocaleString('ru-RU')} звёзд: оплатите тариф картой`,
      'star_subscription_too_dear',
    ),
  subscriptionPeriodPaid: () => conflict('Следующий месяц этой подписки уже оплачен', 'subscription_period_paid'),
  subscriptionEnded: () =>
    conflict('Подписка закончилась: возобновить можно только до конца оплаченного срока', 'subscription_ended'),
  reconciliationRunning: () => conflict('Сверка уже идёт, дождитесь её результата', 'reconciliation_running'),
};
