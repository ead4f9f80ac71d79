import { randomBytes } from 'node:crypto';
import { type BotMessageRequest, type HistoryMessage, messageCost, personName } from '@gpt/contracts';
import { isUniqueViolation, mediaStore, type UploadedImage } from '@gpt/kit';
import { type DirectoryUser, directoryRepository } from '../data/directory.repository';
import { mediaPath, messagesRepository } from '../data/messages.repository';
import { modelsRepository } from '../data/models.repository';
import type { ChatHistoryDeps } from '../deps';
import { settingsUseCases } from './settings';
import { chatHistoryErrors } from './errors';

export interface RecordMessageInput {
  body: BotMessageRequest;
  image?: UploadedImage | undefined;
  /** The bot's Idempotency-Key: a retried request returns the message recorded the first time. */
  idempotencyKey?: string | undefined;
}

export interface RecordMessageResult {
  message: HistoryMessage;
  /** False when the idempotency key named a message recorded before. */
  created: boolean;
}

/** The bot names its user by Telegram id or by our id; both must be users auth told us about. */
async function resolveUser(deps: ChatHistoryDeps, body: BotMessageRequest): Promise<DirectoryUser> {
  const byTelegram =
    body.telegram_id === undefined ? undefined : await directoryRepository(deps.db).findByTelegramId(body.telegram_id);
  if (body.telegram_id !== undefined && !byTelegram) {
    throw chatHistoryErrors.telegramUserNotFound(body.telegram_id);
  }
  if (body.user_id === undefined) return byTelegram!;
  const byId = await directoryRepository(deps.db).findLive(body.user_id);
  if (!byId) throw chatHistoryErrors.userNotFound(body.user_id);
  if (byTelegram && byTelegram.user_id !== byId.user_id) {
    throw chatHistoryErrors.userMismatch();
  }
  return byId;
}

async function knownModel(deps: ChatHistoryDeps, name: string) {
  const model = await modelsRepository(deps.db).findByName(name);
  if (!model) throw chatHistoryErrors.unknownModel(name);
  return model;
}

/**
 * Records one exchange of the bot: who, which model and mode, the texts, tokens, generated images,
 * transcribed seconds and characters read aloud; prices it with the models' prices of this moment
 * and the cost settings, stores the image, and
 * publishes message.recorded in the same transaction (billing charges the credits from it, at
 * most the hold the bot names with `hold_id`, and settles that hold).
 */
export async function recordMessage(deps: ChatHistoryDeps, input: RecordMessageInput): Promise<RecordMessageResult> {
  const { db } = deps;
  const { body, image, idempotencyKey } = input;
  if (idempotencyKey) {
    const earlier = await messagesRepository(db).findByIdempotencyKey(idempotencyKey);
    if (earlier) return { message: earlier, created: false };
  }

  const user = await resolveUser(deps, body);
  const model = await knownModel(deps, body.model);
  const transcriber = body.transcription_model ? await knownModel(deps, body.transcription_model) : null;
  const speaker = body.speech_model ? await knownModel(deps, body.speech_model) : null;
  const settings = await settingsUseCases(deps).costSettings();
  const price = messageCost({
    ...body,
    ...model,
    transcription_price_per_minute: transcriber?.transcription_price_per_minute ?? null,
    speech_price_per_1k_chars: speaker?.speech_price_per_1k_chars ?? null,
    settings,
  });
  if (price.cost > BigInt(Number.MAX_SAFE_INTEGER)) throw chatHistoryErrors.costTooLarge();

  const imageId = image ? randomBytes(16).toString('hex') : null;
  try {
    const message = await deps.bus.transaction(async (trx) => {
      if (image && imageId) await mediaStore.insert(trx, { id: imageId, ...image });
      const id = await messagesRepository(trx).insert({
        user_id: user.user_id,
        telegram_id: body.telegram_id ?? user.telegram_id,
        model: model.model,
        status: body.status,
        user_message: body.user_message,
        bot_response: body.bot_response,
        error_message: body.error_message,
        image_id: imageId,
        input_tokens: body.input_tokens,
        output_tokens: body.output_tokens,
        image_count: body.image_count,
        hold_id: body.hold_id ?? null,
        mode: body.mode,
        door: body.door,
        audio_seconds: body.audio_seconds,
        transcription_cost: price.transcription_cost,
        speech_characters: body.speech_characters,
        speech_cost: price.speech_cost,
        input_price_per_1m: model.input_price_per_1m,
        output_price_per_1m: model.output_price_per_1m,
        input_cost: price.input_cost,
        output_cost: price.output_cost,
        total_cost: price.total_cost,
        cost: price.cost.toString(),
        idempotency_key: idempotencyKey ?? null,
      });
      const recorded = (await messagesRepository(trx).findById(Number(id)))!;
      await deps.bus.publish(trx, 'message.recorded', {
        message_id: recorded.id,
        user_id: recorded.user_id,
        telegram_id: recorded.telegram_id,
        username: user.username,
        user_name: personName(recorded) || null,
        model: recorded.model,
        status: recorded.status,
        input_tokens: recorded.input_tokens,
        output_tokens: recorded.output_tokens,
        input_cost: recorded.input_cost,
        output_cost: recorded.output_cost,
        total_cost: recorded.total_cost,
        cost: recorded.cost,
        user_message: recorded.user_message,
        bot_response: recorded.bot_response,
        error_message: recorded.error_message,
        image_path: imageId ? mediaPath(imageId) : null,
        image_count: recorded.image_count,
        hold_id: recorded.hold_id,
        created_at: recorded.created_at,
      });
      return recorded;
    });
    return { message, created: true };
  } catch (err) {
    // The same key arrived twice at once: the other request recorded it.
    if (idempotencyKey && isUniqueViolation(err)) {
      const earlier = await messagesRepository(db).findByIdempotencyKey(idempotencyKey);
      if (earlier) return { message: earlier, created: false };
    }
    throw err;
  }
}
