import type { Logger } from '@gpt/kit';
import { GrammyError, InputFile, type Api } from 'grammy';
import type { AnswerSink } from '../domain/ask';
import { splitTelegramHtml, toTelegramHtml } from '@gpt/contracts';
import { oggOpusSeconds } from '../engine/ogg-opus';
import { asPreview } from './throttle';
import { texts } from './texts';

const TELEGRAM_LIMIT = 4096;
/** Room for the typing cursor and the "…" of a preview cut to one message. */
const PREVIEW_LIMIT = TELEGRAM_LIMIT - 16;

/**
 * The answer so far, with a bold or a code span that the stream has opened on its last line but not
 * closed yet closed for the preview, so the preview shows as the final answer will (not `**word`).
 */
export function closeOpenInline(text: string): string {
  const lastLine = text.slice(text.lastIndexOf('\n') + 1);
  if (/^ {0,3}(`{3,}|~{3,})/.test(lastLine)) return text;
  let closed = text.trimEnd();
  if ((lastLine.replace(/`[^`]*`/g, '').match(/\*\*/g) ?? []).length % 2 === 1) closed += '**';
  if ((lastLine.replace(/```/g, '').match(/`/g) ?? []).length % 2 === 1) closed += '`';
  return closed;
}

/** Editing a message to the text it already has is refused with this; it is no failure. */
export const isNotModified = (err: unknown) =>
  err instanceof GrammyError && err.description.includes('message is not modified');

/**
 * A streamed answer in Telegram: a placeholder at once, then preview edits as tokens arrive, at most
 * one per `intervalMs` (the throttler sends one at a time per chat, after other chats' placeholders,
 * and keeps only the newest of those waiting), then the final formatted text, split into several
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
    lastEdit = Date.now();
    const [first = ''] = splitTelegramHtml(toTelegramHtml(closeOpenInline(text)), PREVIEW_LIMIT);
    void asPreview(() => edit(first + texts.typingCursor)).catch((err: unknown) =>
      logger.warn({ err }, 'streaming edit failed'),
    );
  };

  return {
    async start() {
      // The placeholder is the first sign of life: no «typing…» before it to wait for or spend Telegram's limit on.
      messageId = (await telegram.sendMessage(chatId, texts.thinking)).message_id;
      return messageId;
    },
    progress(text) {
      if (Date.now() - lastEdit < intervalMs) return;
      showPreview(text);
    },
    async finish(text, { truncated }) {
      // Not after the preview: the throttler drops a preview still queued and sends this edit after one already sent.
      const parts = splitTelegramHtml(toTelegramHtml(text) + (truncated ? texts.answerCut : ''), TELEGRAM_LIMIT);
      const [first = '', ...rest] = parts;
      await edit(first);
      for (const part of rest) {
        await telegram.sendMessage(chatId, part, { parse_mode: 'HTML', link_preview_options: { is_disabled: true } });
      }
    },
    async stopped(text) {
      const [shown = ''] = text.trim() ? splitTelegramHtml(toTelegramHtml(text), PREVIEW_LIMIT - 200) : [];
      await edit(shown ? shown + texts.answerStopped : texts.answerStoppedEmpty);
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
    async fail(partial) {
      // What the model had said stays, marked as cut off; with nothing said, the failure alone.
      const [shown = ''] = partial.trim() ? splitTelegramHtml(toTelegramHtml(partial), PREVIEW_LIMIT - 200) : [];
      const html = shown ? shown + texts.answerBroken : texts.modelFailed;
      if (messageId === undefined) await telegram.sendMessage(chatId, html, { parse_mode: 'HTML' });
      else await edit(html).catch((err: unknown) => logger.warn({ err }, 'could not show the failure'));
    },
  };
}

/** Tells the user their answer was interrupted (the bot stopped or died): in its placeholder, or anew. */
export async function showInterrupted(telegram: Api, chatId: number, messageId: number | null): Promise<void> {
  if (messageId === null) await telegram.sendMessage(chatId, texts.answerInterrupted);
  else
    await telegram.editMessageText(chatId, messageId, texts.answerInterrupted).catch((err: unknown) => {
      if (!isNotModified(err)) throw err;
    });
}
