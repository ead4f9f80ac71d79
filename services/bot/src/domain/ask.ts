import type { AiModel } from '@gpt/contracts';
import type { Logger } from '@gpt/kit';
import type { Kysely } from 'kysely';
import { ServiceCallError, type AttachedImage, type RecordMessageBody, type ServiceClients } from '../clients/services';
import type { Chat } from '../data/chats.repository';
import type { BotDatabase } from '../data/schema';
import { turnsRepository } from '../data/turns.repository';
import type { ContentPart, ModelProvider } from '../engine/provider';
import { creditsFor, type Catalog } from './catalog';
import { buildPrompt, estimateTokens } from './conversation';

/** Where a streamed answer goes: the Telegram message being edited, in the bot. */
export interface AnswerSink {
  /** The model has started: show that something is happening. */
  start(): Promise<void>;
  /** The answer so far (called as often as tokens arrive; the sink decides how often to show it). */
  progress(text: string): void;
  finish(text: string, options: { truncated: boolean }): Promise<void>;
  fail(): Promise<void>;
}

export interface AskDeps {
  db: Kysely<BotDatabase>;
  services: ServiceClients;
  provider: ModelProvider;
  logger: Logger;
}

export interface AskInput {
  chat: Chat;
  catalog: Catalog;
  model: AiModel;
  /** The message as the history shows it. */
  userMessage: string;
  /** What the model gets as the new user turn (text, or text with an image). */
  content: string | ContentPart[];
  /** The user's photo, stored with the message for the admin history. */
  image?: AttachedImage;
}

export type AskOutcome =
  | { kind: 'answered'; text: string; cost: number }
  | { kind: 'insufficient'; needed: number; available: number }
  | { kind: 'failed' };

/** Attempts to record a message before giving up (chat-history briefly unavailable). */
const RECORD_ATTEMPTS = 3;

/**
 * One paid question to a chat model, as the story goes: build the prompt from the conversation;
 * hold the most the call can cost (no hold, no call); stream the answer to the sink; record the
 * message with its real token usage and the hold's id, which charges exactly its cost and
 * releases the hold; remember both turns. A failed call is recorded as an error, costs nothing
 * and releases the hold.
 */
export async function ask(deps: AskDeps, input: AskInput, sink: AnswerSink): Promise<AskOutcome> {
  const { chat, catalog, model } = input;
  const turns = turnsRepository(deps.db);
  const maxOutput = catalog.settings.maxOutputTokens;
  const history = await turns.recent(chat.telegramId, chat.conversation, 100);
  const prompt = buildPrompt(history, input.content, catalog.settings.contextTokenBudget);
  const ceiling = creditsFor(catalog, model, { inputTokens: prompt.estimatedInputTokens, outputTokens: maxOutput });

  const holdId = await placeHold(deps, chat.telegramId, ceiling);
  if (!holdId) {
    const balance = await deps.services.balance(chat.telegramId);
    return { kind: 'insufficient', needed: ceiling, available: balance.available_credits };
  }

  const message = {
    telegram_id: chat.telegramId,
    model: model.model,
    user_message: input.userMessage,
    hold_id: holdId,
    image_count: 0,
  };

  let text = '';
  let usage: { inputTokens: number; outputTokens: number } | undefined;
  try {
    await sink.start();
    for await (const chunk of deps.provider.chat({
      model: model.model,
      messages: prompt.messages,
      maxOutputTokens: maxOutput,
    })) {
      if (chunk.type === 'text') {
        text += chunk.text;
        sink.progress(text);
      } else usage = { inputTokens: chunk.inputTokens, outputTokens: chunk.outputTokens };
    }
    if (!text.trim()) throw new Error('the model answered with no text');
  } catch (err) {
    deps.logger.warn({ err, model: model.model, telegramId: chat.telegramId }, 'model call failed');
    await sink.fail();
    await recordFailure(deps, { ...message, bot_response: text || null }, err, input.image);
    return { kind: 'failed' };
  }

  const real = usage ?? { inputTokens: prompt.estimatedInputTokens, outputTokens: estimateTokens(text) };
  await sink.finish(text, { truncated: real.outputTokens >= maxOutput });
  await recordWithRetries(deps, () =>
    deps.services.recordMessage(
      {
        ...message,
        status: 'success',
        bot_response: text,
        input_tokens: real.inputTokens,
        output_tokens: real.outputTokens,
        error_message: null,
      },
      input.image,
    ),
  );
  await turns.append(chat.telegramId, chat.conversation, [
    { role: 'user', content: input.userMessage },
    { role: 'assistant', content: text },
  ]);
  return { kind: 'answered', text, cost: creditsFor(catalog, model, real) };
}

/** Holds the most a call can cost; null when the user has not that many credits available. */
export async function placeHold(
  deps: Pick<AskDeps, 'services'>,
  telegramId: number,
  credits: number,
): Promise<string | null> {
  try {
    return (await deps.services.hold(telegramId, Math.max(credits, 1))).hold_id;
  } catch (err) {
    if (err instanceof ServiceCallError && err.code === 'insufficient_credits') return null;
    throw err;
  }
}

/**
 * A failed call is recorded as an error: it costs nothing and that ends its hold. When it cannot be
 * recorded, the hold is released here instead.
 */
export async function recordFailure(
  deps: Pick<AskDeps, 'services' | 'logger'>,
  message: Omit<RecordMessageBody, 'status' | 'input_tokens' | 'output_tokens' | 'error_message'> & {
    hold_id: string;
  },
  err: unknown,
  image?: AttachedImage,
): Promise<void> {
  const recorded = await recordWithRetries(deps, () =>
    deps.services.recordMessage(
      {
        ...message,
        status: 'error',
        input_tokens: 0,
        output_tokens: 0,
        error_message: err instanceof Error ? err.message.slice(0, 1000) : String(err),
      },
      image,
    ),
  );
  if (!recorded) await deps.services.releaseHold(message.hold_id).catch(() => undefined);
}

/**
 * Records a message, retrying a few times; false when chat-history stayed unreachable. The hold
 * id is the idempotency key, so a retry after a lost answer records once.
 */
export async function recordWithRetries(
  deps: Pick<AskDeps, 'logger'>,
  recordOnce: () => Promise<void>,
): Promise<boolean> {
  for (let attempt = 1; attempt <= RECORD_ATTEMPTS; attempt++) {
    try {
      await recordOnce();
      return true;
    } catch (err) {
      const permanent = err instanceof ServiceCallError && err.status >= 400 && err.status < 500;
      deps.logger.error({ err, attempt }, 'recording the message failed');
      if (permanent) return false;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
  return false;
}
