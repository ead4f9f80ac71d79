import { AppError, badRequest, conflict, forbidden, notFound, serviceUnavailable } from '@gpt/kit';

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
  paymentNotFound: () => notFound('Платёж не найден', 'payment_not_found'),
  paymentNotWaitingForEmail: () => conflict('Платёж не ожидает email', 'payment_not_waiting_for_email'),
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
  insufficientCredits: () => new AppError('Недостаточно кредитов', 'insufficient_credits', 402),
  holdNotFound: () => notFound('Резерв не найден', 'hold_not_found'),
  adjustmentOfAnotherUser: () => conflict('Это действие уже применено к другому пользователю'),
  userIdMismatch: () => badRequest('user_id в теле не совпадает с адресом', 'user_id_mismatch'),
  adminMismatch: () => forbidden('admin_id не совпадает с администратором из токена', 'admin_mismatch'),
};
