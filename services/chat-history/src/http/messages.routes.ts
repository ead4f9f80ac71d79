import { BotMessageRequest, HistoryMessage } from '@gpt/contracts';
import { answered, respond, routeHandlers, validate } from '@gpt/kit';
import type { ChatHistoryDeps } from '../deps';
import { recordMessage } from '../domain/record-message';
import { readBotMessageBody } from './bot-message-body';
import { chatHistoryErrors } from '../domain/errors';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

/** The bot records each exchange with a user here (JSON or multipart with an image; a repeat answers 200). */
export function messagesRoutes(deps: ChatHistoryDeps) {
  return routeHandlers('chat-history', {
    postBotMessages: async ({ req, res }) => {
      const idempotencyKey = req.get('idempotency-key');
      if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
        throw chatHistoryErrors.invalidIdempotencyKey();
      }
      const { fields, image } = await readBotMessageBody(req);
      const body = validate(BotMessageRequest, fields);
      const { message, created } = await recordMessage(deps, { body, image, idempotencyKey });
      respond(res, HistoryMessage, message, created ? 201 : 200);
      return answered;
    },
  });
}
