import { AppError, badRequest, conflict, notFound, payloadTooLarge } from '@gpt/kit';

/** The chat-history service's refusals, each with the sentence a person reads. */
export const chatHistoryErrors = {
  messageNotFound: () => notFound('Сообщение не найдено', 'message_not_found'),
  modelExists: (name: string) => conflict(`Модель ${name} уже существует`, 'model_exists'),
  modelNotFound: () => notFound('Модель не найдена', 'model_not_found'),
  modeExists: (name: string) => conflict(`Режим «${name}» уже существует`, 'mode_exists'),
  modeNotFound: () => notFound('Режим не найден', 'mode_not_found'),
  defaultModeRequired: () =>
    conflict('Это режим по умолчанию: сначала назначьте режимом по умолчанию другой', 'default_mode_required'),
  defaultModeInUse: () =>
    conflict('Режим по умолчанию нельзя удалить: сначала назначьте режимом по умолчанию другой', 'default_mode_in_use'),
  unknownModel: (name: string) => badRequest(`Неизвестная модель: ${name}`, 'unknown_model'),
  settingNotFound: () => notFound('Настройка не найдена', 'setting_not_found'),
  settingExists: (key: string) => conflict(`Настройка с ключом ${key} уже существует`, 'setting_exists'),
  settingInUse: (key: string, use: string) =>
    conflict(`Настройка ${key} используется ${use}, её нельзя удалить`, 'setting_in_use'),
  invalidCostSetting: (key: string) =>
    badRequest(
      `Значение ${key} должно быть положительным числом (не более 6 знаков после точки, не больше 1 000 000)`,
      'invalid_setting_value',
    ),
  invalidWholeNumberSetting: (key: string, max: number, min = 0) =>
    badRequest(
      `Значение ${key} должно быть целым числом от ${min.toLocaleString('ru-RU')} до ${max.toLocaleString('ru-RU')}`,
      'invalid_setting_value',
    ),
  telegramUserNotFound: (telegramId: number | string) =>
    notFound(`Пользователь с telegram_id ${telegramId} не найден`, 'user_not_found'),
  userNotFound: (userId: number) => notFound(`Пользователь ${userId} не найден`, 'user_not_found'),
  userMismatch: () => badRequest('telegram_id и user_id указывают на разных пользователей', 'user_mismatch'),
  costTooLarge: () => badRequest('Стоимость сообщения слишком велика', 'cost_too_large'),
  invalidIdempotencyKey: () =>
    badRequest('Idempotency-Key: от 1 до 200 печатных символов ASCII', 'invalid_idempotency_key'),
  unsupportedBody: () => new AppError('Ожидается JSON или multipart/form-data', 'unsupported_media_type', 415),
  imageNotFound: () => notFound('Изображение не найдено', 'image_not_found'),
  imageTooLarge: () => payloadTooLarge('Изображение должно быть не больше 10 МБ'),
};
