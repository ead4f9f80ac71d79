import { AppError, badRequest, conflict, notFound, serviceUnavailable, tooManyRequests } from '@gpt/kit';

/** The web chat's refusals (the bot's door says its own in telegram/texts.ts), each with the sentence a person reads. */
export const chatErrors = {
  conversationNotFound: () => notFound('Чат не найден.', 'conversation_not_found'),
  answerNotFound: () => notFound('Ответ не найден.', 'answer_not_found'),
  answerRunning: () => conflict('Дождитесь ответа на предыдущий вопрос или остановите его.', 'answer_running'),
  /** The bot's own words for it (`texts.insufficient`), so both doors refuse alike. */
  insufficientCredits: (message: string) => new AppError(message, 'insufficient_credits', 402),
  /** The bot's words too (`texts.rateLimited`, `texts.noModels`). */
  rateLimited: (message: string, retryAfterSec: number) => tooManyRequests(message, retryAfterSec),
  noModels: (message: string) => serviceUnavailable(message, 'no_models'),
  unknownModel: () => badRequest('Такой модели нет. Выберите модель из списка.', 'unknown_model'),
  unknownMode: () => badRequest('Такого режима нет. Выберите режим из списка.', 'unknown_mode'),
};
