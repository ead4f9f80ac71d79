import type { Logger } from '@gpt/kit';
import { GrammyError, InputFile, type Api } from 'grammy';
import type { AnswerSink } from '../domain/ask';
import { oggOpusSeconds } from '../engine/ogg-opus';
import { splitTelegramHtml, toTelegramHtml } from './format';
import { texts } from './texts';

const TELEGRAM_LIMIT = 4096;
/** Room for the typing cursor and the "…" of a preview cut to one message. */
const PREVIEW_LIMIT = TELEGRAM_LIMIT - 16;

/** Editing a message to the text it already has is refused with this; it is no failure. */
export const isNotModified = (err: unknown) =>
  err instanceof GrammyError && err.description.includes('message is not modified');

/**
 * A streamed answer in Telegram: a placeholder at once, then edits as tokens arrive, at most one
 * per `intervalMs` and never two at a time, then the final formatted text, split into several
 * messages when it is longer than Telegram allows.
 */
export function answerMessage(options: {
  telegram: Api;
  chatId: number;
  intervalMs: number;
  logger: Logger;
}): AnswerSink {
  const { telegram, chatId, intervalMs, logger } = options;
  let messageId: number | undefined;
  let lastEdit = 0;
  let editing: Promise<void> = Promise.resolve();
  let inFlight = false;

  const edit = async (html: string) => {
    if (messageId === undefined) return;
    try {
      await telegram.editMessageText(chatId, messageId, html, {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
      });
    } catch (err) {
      if (!isNotModified(err)) throw err;
    }
  };

  const showPreview = (text: string) => {
    inFlight = true;
    lastEdit = Date.now();
    const [first = ''] = splitTelegramHtml(toTelegramHtml(text), PREVIEW_LIMIT);
    editing = edit(first + texts.typingCursor)
      .catch((err: unknown) => logger.warn({ err }, 'streaming edit failed'))
      .finally(() => {
        inFlight = false;
      });
  };

  return {
    async start() {
      await telegram.sendChatAction(chatId, 'typing').catch(() => undefined);
      messageId = (await telegram.sendMessage(chatId, texts.thinking)).message_id;
    },
    progress(text) {
      if (inFlight || Date.now() - lastEdit < intervalMs) return;
      showPreview(text);
    },
    async finish(text, { truncated }) {
      await editing;
      const parts = splitTelegramHtml(toTelegramHtml(text) + (truncated ? texts.answerCut : ''), TELEGRAM_LIMIT);
      const [first = '', ...rest] = parts;
      await edit(first);
      for (const part of rest) {
        await telegram.sendMessage(chatId, part, { parse_mode: 'HTML', link_preview_options: { is_disabled: true } });
      }
    },
    async heard(transcript) {
      await telegram.sendMessage(chatId, texts.heard(transcript), { parse_mode: 'HTML' });
    },
    async voice(ogg, { trimmed }) {
      await telegram.sendChatAction(chatId, 'upload_voice').catch(() => undefined);
      await telegram.sendVoice(chatId, new InputFile(ogg, 'answer.ogg'), {
        duration: oggOpusSeconds(ogg),
        ...(trimmed ? { caption: texts.voiceTrimmed } : {}),
      });
    },
    async voiceFailed() {
      await telegram.sendMessage(chatId, texts.voiceFailed);
    },
    async fail() {
      await editing;
      if (messageId === undefined) await telegram.sendMessage(chatId, texts.modelFailed);
      else await edit(texts.modelFailed).catch((err: unknown) => logger.warn({ err }, 'could not show the failure'));
    },
  };
}
