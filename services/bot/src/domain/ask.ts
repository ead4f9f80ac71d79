import type { AiModel, ChatDoor } from '@gpt/contracts';
import type { Logger } from '@gpt/kit';
import type { Kysely } from 'kysely';
import {
  ServiceCallError,
  type AttachedImage,
  type Holder,
  type RecordMessageBody,
  type ServiceClients,
} from '../clients/services';
import { conversationsRepository, type ConversationMessage } from '../data/conversations.repository';
import type { BotDatabase } from '../data/schema';
import type { ContentPart, ModelProvider } from '../engine/provider';
import type { AnswerJobs } from './answers';
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

/** Where a streamed answer goes besides its job: the Telegram message being edited, in the bot; nothing more on the web. */
export interface AnswerSink {
  /** The model has started: show that something is happening; answers the placeholder's message id. */
  start(): Promise<number | undefined>;
  /** The answer so far (called as often as tokens arrive; the sink decides how often to show it). */
  progress(text: string): void;
  finish(text: string, options: { truncated: boolean }): Promise<void>;
  /** The user stopped the answer: `text` is what was said before. */
  stopped(text: string): Promise<void>;
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
  answers: Pick<AnswerJobs, 'run'>;
}

/** Who asks, at either door: the user, and their Telegram chat when they have one. */
export interface Speaker {
  userId: number;
  /** The Telegram user: holds and records go by them (billing knows bot users so); null on the web without one. */
  telegramId: number | null;
  chatId: number | null;
  modeId: number | null;
  instructions: string | null;
  voiceReplies: boolean;
}

export interface AskInput {
  speaker: Speaker;
  door: ChatDoor;
  /** The conversation asked in (the web's choice); without it, the current one (the bot). */
  conversationId?: string;
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
  | { kind: 'stopped'; text: string; cost: number }
  | { kind: 'failed' }
  | { kind: 'unheard'; reason: 'empty' | 'unreadable' }
  | { kind: 'interrupted' };

/** The exchange has begun (held, recorded as streaming): `run` answers it; the answer's id names its job. */
export interface Begun {
  kind: 'begun';
  answerId: string;
  question: ConversationMessage;
  run(sink: AnswerSink): Promise<AskOutcome>;
}

/** Refused before any model call: no credits, or an answer already running in the conversation. */
export type Refusal = Insufficient | { kind: 'busy' };

/** Attempts to record a message before giving up (chat-history briefly unavailable). */
const RECORD_ATTEMPTS = 3;
/** Turns of the conversation so far read for the prompt (then trimmed to the token budget). */
const HISTORY_TURNS = 100;

/** Spoken answers need the speech model's row (its price); without it the answer stays text only. */
const speaks = (input: AskInput) =>
  input.speaker.voiceReplies && input.catalog.models.has(input.catalog.settings.speechModel);

/** Billing knows a bot user by their Telegram id, a site user by their id. */
export const holderOf = (speaker: Pick<Speaker, 'userId' | 'telegramId'>): Holder =>
  speaker.telegramId !== null ? { telegramId: speaker.telegramId } : { userId: speaker.userId };
const recordedAs = (speaker: Speaker) =>
  speaker.telegramId !== null ? { telegram_id: speaker.telegramId } : { user_id: speaker.userId };

/** Asks and waits for the answer (the bot's door): the refusal, or how the answer ended. */
export async function ask(deps: AskDeps, input: AskInput, sink: AnswerSink): Promise<AskOutcome | Refusal> {
  const begun = await beginAsking(deps, input);
  return begun.kind === 'begun' ? begun.run(sink) : begun;
}

/**
 * One paid question to a chat model at either door, as the story goes: the question and its answer
 * (empty, streaming) go into the conversation at once — refused when one is already running there;
 * the prompt is the user's mode and instructions, the conversation so far trimmed to the token budget,
 * the message replied to; hold the most the call can cost — the transcription of a voice message, the
 * answer and its speech included (no hold, no call, and neither message stays). `run` then transcribes
 * a voice message and shows what was heard, streams the answer to the sink and to the answer's job
 * (its readers at the web door, docs/architecture.md, The assistant), reads it aloud when the user asked
 * for spoken answers, and records the message with its real usage, mode, door and the hold's id, which
 * charges exactly its cost and releases the hold. Stopped by the user, what was said is kept and
 * charged; a failed call (also one cut off midway, or unheard audio) is recorded as an error, costs
 * nothing and releases the hold. The answer is kept as in progress from the hold to its end, so one
 * whose process stops or dies is resolved as interrupted (domain/generations.ts).
 */
export async function beginAsking(deps: AskDeps, input: AskInput): Promise<Begun | Refusal> {
  const { speaker, catalog, model, voice, door } = input;
  const { settings } = catalog;
  const conversations = conversationsRepository(deps.db);
  const maxOutput = settings.maxOutputTokens;
  const conversation = input.conversationId ?? (await conversations.currentOrNew(speaker.userId, door)).id;
  const history = await conversations.history(conversation, HISTORY_TURNS);
  const exchange = await conversations.beginExchange({
    conversationId: conversation,
    userId: speaker.userId,
    door,
    question: voice ? '' : input.userMessage,
    model: model.model,
  });
  if (!exchange) return { kind: 'busy' };
  const { question, answerId } = exchange;

  const mode = modeFor(catalog, speaker.modeId);
  const frame = promptFrame(mode?.system_prompt, speaker.instructions, input.repliedTo ?? null);
  let prompt = buildPrompt(history, voice ? '' : input.content, settings.contextTokenBudget, frame);
  const speaking = speaks(input);
  const ceiling = creditsFor(catalog, model, {
    inputTokens:
      prompt.estimatedInputTokens + (voice ? estimateTokensOfLength(voice.seconds * TRANSCRIPT_CHARS_PER_SECOND) : 0),
    outputTokens: maxOutput,
    audioSeconds: voice?.seconds ?? 0,
    speechCharacters: speaking ? SPEECH_MAX_CHARS : 0,
  });

  let hold: Awaited<ReturnType<typeof placeHold>>;
  try {
    hold = await placeHold(deps, holderOf(speaker), ceiling);
  } catch (err) {
    await conversations.discardExchange(question.id, answerId);
    throw err;
  }
  if (hold.kind === 'insufficient') {
    await conversations.discardExchange(question.id, answerId);
    return hold;
  }
  const { holdId } = hold;

  const heard = voice ? { transcription_model: settings.transcriptionModel, audio_seconds: voice.seconds } : {};
  const message = {
    ...recordedAs(speaker),
    door,
    model: model.model,
    user_message: input.userMessage,
    hold_id: holdId,
    image_count: 0,
    mode: mode?.name ?? null,
    ...heard,
  };

  const generation = await deps.generations.begin({
    telegramId: speaker.telegramId,
    chatId: speaker.chatId,
    holdId,
    answerId,
  });
  const job = deps.answers.run(answerId, () => generation.stop());
  let text = '';
  const finish = (status: 'done' | 'stopped' | 'failed', cost: number | null) =>
    conversations.finishAnswer(answerId, { text, status, cost });

  return { kind: 'begun', answerId, question, run };

  async function run(sink: AnswerSink): Promise<AskOutcome> {
    try {
      return await answer(sink);
    } catch (err) {
      if (!generation.signal.aborted) {
        await finish('failed', null);
        throw err;
      }
      await generation.interrupt();
      return { kind: 'interrupted' };
    } finally {
      await generation.end();
      job.end();
    }
  }

  async function answer(sink: AnswerSink): Promise<AskOutcome> {
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
        deps.logger.warn({ err, userId: speaker.userId }, 'transcription failed');
        await recordFailure(deps, { ...message, bot_response: null }, err);
        await finish('failed', null);
        return { kind: 'unheard', reason: 'unreadable' };
      }
      if (!transcript) {
        await recordFailure(deps, { ...message, bot_response: null }, new Error('no speech in the audio'));
        await finish('failed', null);
        return { kind: 'unheard', reason: 'empty' };
      }
      await sink.heard(transcript);
      message.user_message = transcript;
      await conversations.setQuestion(question.id, transcript);
      prompt = buildPrompt(history, transcript, settings.contextTokenBudget, frame);
    }

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
          job.progress(text);
          sink.progress(text);
        } else usage = { inputTokens: chunk.inputTokens, outputTokens: chunk.outputTokens };
      }
      // The openai client ends an aborted stream quietly: a stop or a shutdown is still an abort.
      if (generation.signal.aborted) throw generation.signal.reason;
      if (!text.trim()) throw new Error('the model answered with no text');
    } catch (err) {
      if (generation.stopped) return stopped(sink);
      if (generation.signal.aborted) throw err;
      deps.logger.warn({ err, model: model.model, userId: speaker.userId }, 'model call failed');
      // Recorded first: the hold ends even when the chat cannot be told (the user blocked the bot).
      await recordFailure(deps, { ...message, bot_response: text || null }, err, input.image);
      await finish('failed', null);
      await sink.fail(text);
      return { kind: 'failed' };
    }

    const real = usage ?? { inputTokens: prompt.estimatedInputTokens, outputTokens: estimateTokens(text) };
    try {
      await sink.finish(text, { truncated: real.outputTokens >= maxOutput });
    } catch (err) {
      // Telegram refused the answer for good (retries are the transport's): not delivered, so not charged.
      await recordFailure(deps, { ...message, bot_response: text }, err, input.image);
      await finish('failed', null);
      throw err;
    }
    const speechCharacters = speaking ? await speak(deps, input, text, sink) : 0;
    const cost = await charge(real, speechCharacters, 'done');
    return { kind: 'answered', text, cost };
  }

  /** Records what was said with its usage (its length, when stopped): charged at its cost, the answer ends so. */
  async function charge(
    usage: { inputTokens: number; outputTokens: number },
    speechCharacters: number,
    status: 'done' | 'stopped',
  ): Promise<number> {
    const spoken =
      speechCharacters > 0 ? { speech_model: settings.speechModel, speech_characters: speechCharacters } : {};
    await recordWithRetries(deps, () =>
      deps.services.recordMessage(
        {
          ...message,
          ...spoken,
          status: 'success',
          bot_response: text,
          input_tokens: usage.inputTokens,
          output_tokens: usage.outputTokens,
          error_message: null,
        },
        input.image,
      ),
    );
    const cost = creditsFor(catalog, model, { ...usage, audioSeconds: voice?.seconds ?? 0, speechCharacters });
    await finish(status, cost);
    return cost;
  }

  async function showStopped(sink: AnswerSink, said: string) {
    await sink.stopped(said).catch((err: unknown) => deps.logger.warn({ err }, 'could not show the stopped answer'));
  }

  /**
   * «Остановить»: the model call is aborted upstream; what it had said stays and is charged by its
   * length (the provider reports no usage for a stream cut short), nothing said costs nothing.
   */
  async function stopped(sink: AnswerSink): Promise<AskOutcome> {
    if (!text.trim()) {
      await recordFailure(deps, { ...message, bot_response: null }, new Error('stopped by the user'), input.image);
      await finish('stopped', 0);
      await showStopped(sink, text);
      return { kind: 'stopped', text, cost: 0 };
    }
    const cost = await charge(
      { inputTokens: prompt.estimatedInputTokens, outputTokens: estimateTokens(text) },
      0,
      'stopped',
    );
    await showStopped(sink, text);
    return { kind: 'stopped', text, cost };
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
    deps.logger.warn({ err, userId: input.speaker.userId }, 'speech failed');
    await sink.voiceFailed();
    return 0;
  }
}

/** Holds the most a call can cost; refused, what billing had available (no second call to ask). */
export async function placeHold(
  deps: Pick<AskDeps, 'services'>,
  holder: Holder,
  credits: number,
): Promise<{ kind: 'held'; holdId: string } | Insufficient> {
  const hold = await deps.services.hold(holder, Math.max(credits, 1));
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
