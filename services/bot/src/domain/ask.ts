import type { AiModel } from '@gpt/contracts';
import type { Logger } from '@gpt/kit';
import type { Kysely } from 'kysely';
import { ServiceCallError, type AttachedImage, type RecordMessageBody, type ServiceClients } from '../clients/services';
import type { Chat } from '../data/chats.repository';
import type { BotDatabase } from '../data/schema';
import { turnsRepository } from '../data/turns.repository';
import type { ContentPart, ModelProvider } from '../engine/provider';
import { creditsFor, modeFor, type Catalog } from './catalog';
import { buildPrompt, estimateTokens, estimateTokensOfLength, promptFrame } from './conversation';
import type { Generations } from './generations';
import {
  SPEECH_MAX_CHARS,
  speechText,
  TRANSCRIPT_CHARS_PER_SECOND,
  TRANSCRIPTION_LANGUAGE,
  type VoiceInput,
} from './voice';

/** Where a streamed answer goes: the Telegram message being edited, in the bot. */
export interface AnswerSink {
  /** The model has started: show that something is happening; answers the placeholder's message id. */
  start(): Promise<number | undefined>;
  /** The answer so far (called as often as tokens arrive; the sink decides how often to show it). */
  progress(text: string): void;
  finish(text: string, options: { truncated: boolean }): Promise<void>;
  /** The call failed; `partial` is what the model had said before (kept visible, marked as cut). */
  fail(partial: string): Promise<void>;
  /** A voice message was heard: show what was understood. */
  heard(transcript: string): Promise<void>;
  /** The answer read aloud (Ogg/Opus); `trimmed`: only its beginning fitted. */
  voice(ogg: Buffer, options: { trimmed: boolean }): Promise<void>;
  /** The answer could not be read aloud (the text answer stands). */
  voiceFailed(): Promise<void>;
}

export interface AskDeps {
  db: Kysely<BotDatabase>;
  services: ServiceClients;
  provider: ModelProvider;
  logger: Logger;
  generations: Pick<Generations, 'begin'>;
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
  /** The bot's earlier message the user replied to. */
  repliedTo?: string | null;
  /** A voice message: transcribed first, and its transcript is the message (`userMessage` and `content` unused). */
  voice?: VoiceInput;
}

/** A call refused for want of credits: what it would have held, and what billing had available. */
export type Insufficient = { kind: 'insufficient'; needed: number; available: number };

export type AskOutcome =
  | { kind: 'answered'; text: string; cost: number }
  | Insufficient
  | { kind: 'failed' }
  | { kind: 'unheard'; reason: 'empty' | 'unreadable' }
  | { kind: 'interrupted' };

/** Attempts to record a message before giving up (chat-history briefly unavailable). */
const RECORD_ATTEMPTS = 3;

/** Spoken answers need the speech model's row (its price); without it the answer stays text only. */
const speaks = (input: AskInput) =>
  input.chat.voiceReplies && input.catalog.models.has(input.catalog.settings.speechModel);

/**
 * One paid question to a chat model, as the story goes: build the prompt from the user's mode and
 * instructions, the conversation and the message replied to; hold the most the call can cost —
 * the transcription of a voice message, the answer and its speech included (no hold, no call);
 * transcribe a voice message and show what was heard; stream the answer to the sink; read it
 * aloud when the user asked for spoken answers; record the message with its real usage, mode and
 * the hold's id, which charges exactly its cost and releases the hold; remember both turns. A
 * failed call (also one cut off midway, or unheard audio) is recorded as an error, costs nothing and
 * releases the hold. The answer is kept as in progress from the hold to its end, so one whose
 * process stops or dies is resolved as interrupted (domain/generations.ts).
 */
export async function ask(deps: AskDeps, input: AskInput, sink: AnswerSink): Promise<AskOutcome> {
  const { chat, catalog, model, voice } = input;
  const { settings } = catalog;
  const turns = turnsRepository(deps.db);
  const maxOutput = settings.maxOutputTokens;
  const history = await turns.recent(chat.telegramId, chat.conversation, 100);
  const mode = modeFor(catalog, chat.modeId);
  const frame = promptFrame(mode?.system_prompt, chat.instructions, input.repliedTo ?? null);
  let prompt = buildPrompt(history, voice ? '' : input.content, settings.contextTokenBudget, frame);
  const speaking = speaks(input);
  const ceiling = creditsFor(catalog, model, {
    inputTokens:
      prompt.estimatedInputTokens + (voice ? estimateTokensOfLength(voice.seconds * TRANSCRIPT_CHARS_PER_SECOND) : 0),
    outputTokens: maxOutput,
    audioSeconds: voice?.seconds ?? 0,
    speechCharacters: speaking ? SPEECH_MAX_CHARS : 0,
  });

  const hold = await placeHold(deps, chat.telegramId, ceiling);
  if (hold.kind === 'insufficient') return hold;
  const { holdId } = hold;

  const heard = voice ? { transcription_model: settings.transcriptionModel, audio_seconds: voice.seconds } : {};
  const message = {
    telegram_id: chat.telegramId,
    model: model.model,
    user_message: input.userMessage,
    hold_id: holdId,
    image_count: 0,
    mode: mode?.name ?? null,
    ...heard,
  };

  const generation = await deps.generations.begin({ telegramId: chat.telegramId, chatId: chat.chatId, holdId });
  try {
    return await answer();
  } catch (err) {
    if (!generation.signal.aborted) throw err;
    await generation.interrupt();
    return { kind: 'interrupted' };
  } finally {
    await generation.end();
  }

  async function answer(): Promise<AskOutcome> {
    if (voice) {
      let transcript: string;
      try {
        transcript = await deps.provider.transcribe({
          model: settings.transcriptionModel,
          audio: voice.audio,
          fileName: voice.fileName,
          mimeType: voice.mimeType,
          language: TRANSCRIPTION_LANGUAGE,
        });
      } catch (err) {
        deps.logger.warn({ err, telegramId: chat.telegramId }, 'transcription failed');
        await recordFailure(deps, { ...message, bot_response: null }, err);
        return { kind: 'unheard', reason: 'unreadable' };
      }
      if (!transcript) {
        await recordFailure(deps, { ...message, bot_response: null }, new Error('no speech in the audio'));
        return { kind: 'unheard', reason: 'empty' };
      }
      await sink.heard(transcript);
      message.user_message = transcript;
      prompt = buildPrompt(history, transcript, settings.contextTokenBudget, frame);
    }

    let text = '';
    let usage: { inputTokens: number; outputTokens: number } | undefined;
    try {
      const placeholder = await sink.start();
      if (placeholder !== undefined) await generation.placeholderSent(placeholder);
      for await (const chunk of deps.provider.chat({
        model: model.model,
        messages: prompt.messages,
        maxOutputTokens: maxOutput,
        signal: generation.signal,
      })) {
        if (chunk.type === 'text') {
          text += chunk.text;
          sink.progress(text);
        } else usage = { inputTokens: chunk.inputTokens, outputTokens: chunk.outputTokens };
      }
      if (!text.trim()) throw new Error('the model answered with no text');
    } catch (err) {
      if (generation.signal.aborted) throw err;
      deps.logger.warn({ err, model: model.model, telegramId: chat.telegramId }, 'model call failed');
      // Recorded first: the hold ends even when the chat cannot be told (the user blocked the bot).
      await recordFailure(deps, { ...message, bot_response: text || null }, err, input.image);
      await sink.fail(text);
      return { kind: 'failed' };
    }

    const real = usage ?? { inputTokens: prompt.estimatedInputTokens, outputTokens: estimateTokens(text) };
    try {
      await sink.finish(text, { truncated: real.outputTokens >= maxOutput });
    } catch (err) {
      // Telegram refused the answer for good (retries are the transport's): not delivered, so not charged.
      await recordFailure(deps, { ...message, bot_response: text }, err, input.image);
      throw err;
    }
    const speechCharacters = speaking ? await speak(deps, input, text, sink) : 0;
    const spoken =
      speechCharacters > 0 ? { speech_model: settings.speechModel, speech_characters: speechCharacters } : {};
    await recordWithRetries(deps, () =>
      deps.services.recordMessage(
        {
          ...message,
          ...spoken,
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
      { role: 'user', content: message.user_message },
      { role: 'assistant', content: text },
    ]);
    const cost = creditsFor(catalog, model, { ...real, audioSeconds: voice?.seconds ?? 0, speechCharacters });
    return { kind: 'answered', text, cost };
  }
}

/** Reads the answer aloud into the chat; answers the characters spoken (0 when speech failed: not charged). */
async function speak(deps: AskDeps, input: AskInput, answer: string, sink: AnswerSink): Promise<number> {
  const { settings } = input.catalog;
  const { text, trimmed } = speechText(answer);
  if (!text) return 0;
  try {
    const ogg = await deps.provider.speak({ model: settings.speechModel, voice: settings.speechVoice, text });
    await sink.voice(ogg, { trimmed });
    return text.length;
  } catch (err) {
    deps.logger.warn({ err, telegramId: input.chat.telegramId }, 'speech failed');
    await sink.voiceFailed();
    return 0;
  }
}

/** Holds the most a call can cost; refused, what billing had available (no second call to ask). */
export async function placeHold(
  deps: Pick<AskDeps, 'services'>,
  telegramId: number,
  credits: number,
): Promise<{ kind: 'held'; holdId: string } | Insufficient> {
  const hold = await deps.services.hold(telegramId, Math.max(credits, 1));
  return 'hold_id' in hold
    ? { kind: 'held', holdId: hold.hold_id }
    : { kind: 'insufficient', needed: credits, available: hold.available_credits };
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
