import {
  SandboxChat,
  SandboxChatQuery,
  SandboxFileParams,
  SandboxPressRequest,
  SandboxSendRequest,
  SandboxSent,
  SandboxUploadRequest,
  type SandboxMessage,
} from '@gpt/contracts';
import { badRequest, notFound, respond, validate } from '@gpt/kit';
import { Router } from 'express';
import type { ChatLogEntry, SandboxBotApi, SandboxUser } from './bot-api';
import { SANDBOX_PATH } from './telegram-sandbox';

/** The most recent messages a chat read answers with. */
const CHAT_WINDOW = 200;
/** Images the page shows inline; anything else but audio is downloaded, never rendered by the browser. */
const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** Audio the page plays (voice messages both ways). */
const isAudio = (mime: string) => /^audio\/[\w.+-]+$/.test(mime);

const userOf = ({ user_id, first_name }: { user_id: number; first_name: string }): SandboxUser => ({
  id: user_id,
  first_name,
  language_code: 'ru',
});

const fileUrl = (fileId: string) => `${SANDBOX_PATH}/chat/files/${fileId}`;

/** A message as the page draws it: text and Telegram's entities (the page renders them, no HTML passes). */
function viewOf(entry: ChatLogEntry): SandboxMessage {
  const { message } = entry;
  const photo = message.photo?.at(-1);
  const sound = message.voice ?? message.audio;
  return {
    message_id: entry.message_id,
    from: entry.from,
    date: message.date,
    edited: message.edit_date !== undefined,
    text: entry.text,
    entities: (message.entities ?? message.caption_entities ?? []).map((entity) => ({
      type: entity.type,
      offset: entity.offset,
      length: entity.length,
      ...('url' in entity ? { url: entity.url } : {}),
      ...('language' in entity && entity.language ? { language: entity.language } : {}),
    })),
    photo: photo ? { url: fileUrl(photo.file_id) } : null,
    document: message.document
      ? { file_name: message.document.file_name ?? 'файл', url: fileUrl(message.document.file_id) }
      : null,
    voice: sound ? { url: fileUrl(sound.file_id), duration: sound.duration } : null,
    buttons: (entry.reply_markup?.inline_keyboard ?? []).map((row) =>
      row.map((button) => ({
        text: button.text,
        ...('url' in button ? { url: button.url } : {}),
        ...('callback_data' in button ? { callback_data: button.callback_data } : {}),
      })),
    ),
  };
}

/**
 * The sandbox under /api/telegram/sandbox: the Bot API the bot calls (`/bot<token>/<method>`,
 * `/file/bot<token>/<path>`) and the user's side for the site's /telegram-sandbox page (`/chat…`).
 */
export function sandboxRouter(sandbox: SandboxBotApi): Router {
  const router = Router();

  router.get('/chat', async (req, res) => {
    const { user_id, after, wait } = validate(SandboxChatQuery, req.query);
    if (after !== undefined && wait) {
      const gone = new AbortController();
      res.once('close', () => gone.abort());
      await sandbox.chatChange(user_id, after, wait * 1000, gone.signal);
    }
    respond(res, SandboxChat, {
      version: sandbox.chatVersion(user_id),
      bot: { first_name: sandbox.me.first_name, username: sandbox.me.username },
      messages: sandbox.chatLog(user_id).slice(-CHAT_WINDOW).map(viewOf),
    });
  });

  router.post('/chat/messages', (req, res) => {
    const { text, ...user } = validate(SandboxSendRequest, req.body);
    const update = text.startsWith('/')
      ? sandbox.sendCommand(userOf(user), text)
      : sandbox.sendText(userOf(user), text);
    respond(res, SandboxSent, { message_id: update.message!.message_id }, 201);
  });

  router.post('/chat/uploads', (req, res) => {
    const { kind, file_name, mime_type, data, caption, duration, ...user } = validate(SandboxUploadRequest, req.body);
    const bytes = Buffer.from(data, 'base64');
    if (kind === 'photo' && !INLINE_IMAGES.has(mime_type))
      throw badRequest('Фото должно быть в формате JPEG, PNG, GIF или WebP', 'unsupported_image');
    if (kind === 'voice' && !isAudio(mime_type))
      throw badRequest('Голосовое сообщение должно быть аудиофайлом (ogg, mp3, m4a, wav…)', 'unsupported_audio');
    const update =
      kind === 'photo'
        ? sandbox.sendPhoto(userOf(user), bytes, caption || undefined, mime_type)
        : kind === 'voice'
          ? sandbox.sendVoice(userOf(user), bytes, { duration: Math.max(1, duration ?? 1), mime_type })
          : sandbox.sendDocument(userOf(user), bytes, {
              file_name,
              mime_type,
              ...(caption ? { caption } : {}),
            });
    respond(res, SandboxSent, { message_id: update.message!.message_id }, 201);
  });

  router.post('/chat/buttons', (req, res) => {
    const { message_id, data, ...user } = validate(SandboxPressRequest, req.body);
    if (!sandbox.pressButton(userOf(user), message_id, data))
      throw notFound('У этого сообщения нет такой кнопки', 'button_not_found');
    respond(res, SandboxSent, { message_id });
  });

  router.get('/chat/files/:file_id', (req, res) => {
    const { file_id } = validate(SandboxFileParams, req.params);
    const file = sandbox.file(file_id);
    if (!file) throw notFound('Файл не найден', 'file_not_found');
    const inline = INLINE_IMAGES.has(file.mime) || isAudio(file.mime);
    res
      .type(inline ? file.mime : 'application/octet-stream')
      .set('Content-Disposition', inline ? 'inline' : `attachment; filename="${file.file_path.split('/').pop()}"`)
      .send(file.bytes);
  });

  router.use((req, res, next) => {
    if (/^\/(file\/)?bot[^/]+\//.test(req.path)) void sandbox.handle(req, res);
    else next();
  });
  return router;
}
