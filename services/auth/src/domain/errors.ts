import { LINK_ERROR_MESSAGES } from '@gpt/contracts';
import { AppError, badRequest, conflict, notFound, serviceUnavailable, tooManyRequests, unauthorized } from '@gpt/kit';

/** The auth service's refusals, each with the sentence a person reads. */
export const authErrors = {
  emailTaken: () => conflict('Пользователь с таким email уже существует', 'email_taken'),
  /** One message for an unknown e-mail and a wrong password, so neither is revealed. */
  invalidCredentials: () => unauthorized('Неверный email или пароль', 'invalid_credentials'),
  wrongCurrentPassword: () => badRequest('Неверный текущий пароль', 'invalid_current_password'),
  accountGone: () => unauthorized('Пользователь не найден', 'user_not_found'),
  userNotFound: () => notFound('Пользователь не найден', 'user_not_found'),
  linkTokenUnknown: () => notFound(LINK_ERROR_MESSAGES.link_token_invalid, 'link_token_invalid'),
  linkTokenExpired: () => new AppError(LINK_ERROR_MESSAGES.link_token_expired, 'link_token_expired', 410),
  linkTokenUsed: () => conflict(LINK_ERROR_MESSAGES.link_token_used, 'link_token_used'),
  resetTokenUnknown: () =>
    notFound('Ссылка для смены пароля недействительна. Запросите новую ссылку', 'reset_token_invalid'),
  resetTokenExpired: () =>
    new AppError('Срок действия ссылки для смены пароля истёк. Запросите новую ссылку', 'reset_token_expired', 410),
  tooManyResetAttempts: (retryAfterSec: number) =>
    tooManyRequests('Слишком много попыток сменить пароль по этой ссылке, попробуйте позже', retryAfterSec),
  resetTokenUsed: () =>
    conflict('Ссылка для смены пароля уже использована. Запросите новую ссылку', 'reset_token_used'),
  confirmationTokenUnknown: () =>
    notFound(
      'Ссылка для подтверждения e-mail недействительна. Запросите новое письмо в личном кабинете',
      'confirmation_token_invalid',
    ),
  confirmationTokenExpired: () =>
    new AppError(
      'Срок действия ссылки для подтверждения e-mail истёк. Запросите новое письмо в личном кабинете',
      'confirmation_token_expired',
      410,
    ),
  emailAlreadyConfirmed: () => conflict('E-mail уже подтверждён', 'email_already_confirmed'),
  tooManyConfirmationMails: (retryAfterSec: number) =>
    tooManyRequests(
      `Письмо уже отправлено. Запросить ещё одно можно через ${Math.ceil(retryAfterSec / 60)} мин.`,
      retryAfterSec,
    ),
  telegramLinkedElsewhere: () => conflict(LINK_ERROR_MESSAGES.telegram_already_linked, 'telegram_already_linked'),
  webLinkedElsewhere: () => conflict(LINK_ERROR_MESSAGES.account_already_linked, 'account_already_linked'),
  telegramNotLinked: () => conflict('Аккаунт не связан с Telegram', 'telegram_not_linked'),
  telegramOnlyAccount: () =>
    conflict(
      'Этот аккаунт создан в Telegram: у него нет аккаунта сайта, от которого можно отвязать',
      'telegram_only_account',
    ),
  cannotDemoteSelf: () => conflict('Нельзя снять роль администратора с самого себя', 'cannot_demote_self'),
  cannotDeleteSelf: () => conflict('Нельзя удалить самого себя', 'cannot_delete_self'),
  lastAdmin: () => conflict('Нельзя удалить или понизить последнего администратора', 'last_admin'),
  billingUnavailable: () => serviceUnavailable('Биллинг недоступен', 'billing_unavailable'),
};
