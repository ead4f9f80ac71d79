import type {
  Audio,
  CallbackQuery,
  Document,
  InlineKeyboardMarkup,
  Message,
  MessageEntity,
  PhotoSize,
  Update,
  User,
  UserFromGetMe,
  Voice,
} from 'grammy/types';
import { unixTime, type SandboxChat, type SandboxChats } from './chats';
import { fileOfMessage, type SandboxFiles } from './files';
import { parseTelegramHtml, TelegramHtmlError } from './html';
import { badRequest, type Handler, type Params } from './params';
import type { SandboxBotApi, SandboxUser } from './types';
import type { SandboxUpdates } from './updates';

const TEXT_LIMIT = 4096;

/**
 * A URL button opens http(s) and tg links only, with Telegram's own error text. (Telegram also refuses a
 * host it cannot reach, such as localhost; the sandbox lets those pass, so a site on this machine keeps
 * its buttons on the /telegram-sandbox page.)
 */
function checkButtonUrl(url: string): void {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed || !['http:', 'https:', 'tg:'].includes(parsed.protocol))
    throw badRequest(`inline keyboard button URL '${url}' is invalid: Unsupported URL protocol`);
}
const CAPTION_LIMIT = 1024;
const CHAT_ACTIONS = new Set([
  'typing',
  'upload_photo',
  'record_video',
  'upload_video',
  'record_voice',
  'upload_voice',
  'upload_document',
  'choose_sticker',
  'find_location',
  'record_video_note',
  'upload_video_note',
]);

/** Text or a caption as a sent message carries it. */
interface FormattedText {
  text?: string;
  entities?: MessageEntity[];
  caption?: string;
  caption_entities?: MessageEntity[];
}

export type SandboxMessages = ReturnType<typeof createMessages>;

/**
 * Messages both ways: the Bot API methods that send, edit and delete them (with Telegram's formatting
 * limits and reply markup), callback queries and their answers, and the user's side — what they send,
 * the buttons they press, blocking the bot.
 */
export function createMessages(parts: {
  me: UserFromGetMe;
  chats: SandboxChats;
  files: SandboxFiles;
  updates: SandboxUpdates;
  /** How long a callback query may wait for its answer. */
  callbackQueryMs: number;
}) {
  const { me, chats, files, updates, callbackQueryMs } = parts;
  const botUser: User = { id: me.id, is_bot: true, first_name: me.first_name, username: me.username };
  /** Callback queries not answered yet, with when each expires. */
  const callbackQueries = new Map<string, number>();
  /** The users who blocked the bot. */
  const blockedBy = new Set<number>();

  /** The bot's membership in a user's chat changed, as Telegram reports it (`my_chat_member`). */
  function memberUpdate(from: SandboxUser, oldStatus: 'member' | 'kicked', newStatus: 'member' | 'kicked'): void {
    const member = (status: typeof oldStatus) =>
      status === 'kicked' ? { status, user: botUser, until_date: 0 } : { status, user: botUser };
    updates.push({
      my_chat_member: {
        chat: chats.of(from).chat,
        from: { ...from, is_bot: false },
        date: unixTime(),
        old_chat_member: member(oldStatus),
        new_chat_member: member(newStatus),
      },
    } as Omit<Update, 'update_id'>);
  }

  function unblock(from: SandboxUser): void {
    if (blockedBy.delete(from.id)) memberUpdate(from, 'kicked', 'member');
  }

  /** A message the user sends, delivered to the bot; writing to the bot unblocks it. */
  function userMessage(from: SandboxUser, fields: Partial<Message>): Update {
    unblock(from);
    const message = chats.post(chats.of(from), { ...from, is_bot: false }, fields);
    return updates.push({ message: message as Update['message'] });
  }

  function botMessage(chatId: number, fields: Partial<Message>): Message {
    const entry = chats.get(chatId);
    if (!entry) throw badRequest('chat not found');
    return chats.post(entry, botUser, fields);
  }

  /** Text with its entities as the parse mode makes them; refuses what Telegram refuses. */
  function formatted(
    raw: string | undefined,
    parseMode: string | undefined,
    limit: number,
    what: 'text' | 'caption',
  ): FormattedText {
    if (raw === undefined || raw.trim() === '') {
      if (what === 'text') throw badRequest('message text is empty');
      return {};
    }
    const parsed =
      parseMode?.toUpperCase() === 'HTML' ? parseTelegramHtmlOrRefuse(raw) : { text: raw.trim(), entities: [] };
    if (parsed.text.length === 0 && what === 'text') throw badRequest('text must be non-empty');
    if (parsed.text.length > limit)
      throw badRequest(what === 'text' ? 'message is too long' : 'message caption is too long');
    const entities = parsed.entities.length > 0 ? parsed.entities : undefined;
    if (what === 'caption')
      return entities ? { caption: parsed.text, caption_entities: entities } : { caption: parsed.text };
    return entities ? { text: parsed.text, entities } : { text: parsed.text };
  }

  const captionOf = (params: Params) =>
    formatted(params.string('caption'), params.string('parse_mode'), CAPTION_LIMIT, 'caption');

  function replyMarkup(params: Params): { reply_markup?: InlineKeyboardMarkup } {
    const markup = params.object<Partial<InlineKeyboardMarkup>>('reply_markup');
    if (!markup?.inline_keyboard) return {};
    for (const button of markup.inline_keyboard.flat()) {
      // 1–64 bytes, as Telegram counts them.
      const bytes = 'callback_data' in button ? Buffer.byteLength(button.callback_data) : 1;
      if (bytes < 1 || bytes > 64) throw badRequest('BUTTON_DATA_INVALID');
      if ('url' in button) checkButtonUrl(String(button.url));
    }
    return { reply_markup: markup as InlineKeyboardMarkup };
  }

  function existingMessage(params: Params, action: string): { entry: SandboxChat; message: Message } {
    const chatId = params.number('chat_id');
    const messageId = params.number('message_id');
    const entry = chatId === undefined ? undefined : chats.get(chatId);
    const message = messageId === undefined ? undefined : entry?.messages.get(messageId);
    if (!entry || !message) throw badRequest(`message to ${action} not found`);
    return { entry, message };
  }

  /** Telegram's id of a query the user makes (a button press, a checkout), unique across updates. */
  const queryId = (from: SandboxUser) => String(BigInt(from.id) * 1000n + BigInt(updates.nextId));

  const handlers: Record<string, Handler> = {
    sendMessage: (params) =>
      botMessage(params.requiredNumber('chat_id'), {
        ...formatted(params.string('text'), params.string('parse_mode'), TEXT_LIMIT, 'text'),
        ...replyMarkup(params),
      }),

    editMessageText: (params) => {
      const { entry, message } = existingMessage(params, 'edit');
      if (message.from?.id !== me.id) throw badRequest("message can't be edited");
      if (message.text === undefined) throw badRequest('there is no text in the message to edit');
      const edited = {
        ...formatted(params.string('text'), params.string('parse_mode'), TEXT_LIMIT, 'text'),
        ...replyMarkup(params),
      };
      const same =
        edited.text === message.text &&
        JSON.stringify(edited.entities ?? []) === JSON.stringify(message.entities ?? []) &&
        JSON.stringify(edited.reply_markup) === JSON.stringify(message.reply_markup);
      if (same)
        throw badRequest(
          'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
        );
      delete message.entities;
      delete message.reply_markup;
      Object.assign(message, edited, { edit_date: unixTime() });
      chats.changed(entry);
      return message;
    },

    deleteMessage: (params) => {
      const { entry, message } = existingMessage(params, 'delete');
      entry.messages.delete(message.message_id);
      chats.changed(entry);
      return true;
    },

    sendPhoto: (params) => {
      const chatId = params.requiredNumber('chat_id');
      const file = files.input(params, 'photo', 'photos', chatId);
      const photo: PhotoSize = { ...fileOfMessage(file), width: 1024, height: 1024 };
      return botMessage(chatId, { photo: [photo], ...captionOf(params), ...replyMarkup(params) });
    },

    sendDocument: (params) => {
      const chatId = params.requiredNumber('chat_id');
      const file = files.input(params, 'document', 'documents', chatId);
      const document: Document = { ...fileOfMessage(file), mime_type: file.mime };
      if (file.name) document.file_name = file.name;
      return botMessage(chatId, { document, ...captionOf(params), ...replyMarkup(params) });
    },

    sendVoice: (params) => {
      const chatId = params.requiredNumber('chat_id');
      const file = files.input(params, 'voice', 'voice', chatId);
      const voice: Voice = {
        ...fileOfMessage(file),
        duration: params.number('duration') ?? 0,
        mime_type: file.mime === 'application/octet-stream' ? 'audio/ogg' : file.mime,
      };
      return botMessage(chatId, { voice, ...captionOf(params), ...replyMarkup(params) });
    },

    sendChatAction: (params) => {
      const chatId = params.requiredNumber('chat_id');
      if (!chats.get(chatId)) throw badRequest('chat not found');
      if (!CHAT_ACTIONS.has(params.string('action') ?? '')) throw badRequest('wrong parameter action in request');
      return true;
    },

    answerCallbackQuery: (params) => {
      const id = params.string('callback_query_id') ?? '';
      const expires = callbackQueries.get(id);
      callbackQueries.delete(id);
      if (expires === undefined || Date.now() > expires)
        throw badRequest('query is too old and response timeout expired or query ID is invalid');
      return true;
    },
  };

  const userSide: Pick<
    SandboxBotApi,
    | 'sendText'
    | 'sendCommand'
    | 'sendPhoto'
    | 'sendDocument'
    | 'sendVoice'
    | 'sendAudio'
    | 'pressButton'
    | 'blockBot'
    | 'unblockBot'
  > = {
    sendText(from, text, replyTo) {
      const replied = replyTo === undefined ? undefined : chats.of(from).messages.get(replyTo);
      // Telegram sends the replied message along, without its own reply.
      const reply = replied ? { reply_to_message: { ...replied, reply_to_message: undefined } } : {};
      return userMessage(from, { text, ...reply } as Partial<Message>);
    },

    sendCommand(from, command) {
      const length = command.split(/\s/)[0]!.length;
      return userMessage(from, { text: command, entities: [{ type: 'bot_command', offset: 0, length }] });
    },

    sendPhoto(from, bytes, caption, mime = 'image/jpeg') {
      const file = files.store(bytes, mime, 'photos', { chatId: from.id });
      const sizes: PhotoSize[] = [{ ...fileOfMessage(file), width: 800, height: 600 }];
      return userMessage(from, caption ? { photo: sizes, caption } : { photo: sizes });
    },

    sendDocument(from, bytes, { file_name, mime_type, caption }) {
      const file = files.store(bytes, mime_type, 'documents', { name: file_name, chatId: from.id });
      // As Telegram delivers it, whatever the user's client sent: the bot makes it safe.
      const document: Document = { ...fileOfMessage(file), file_name, mime_type };
      return userMessage(from, caption ? { document, caption } : { document });
    },

    sendVoice(from, bytes, { duration, mime_type = 'audio/ogg' }) {
      const file = files.store(bytes, mime_type, 'voice', { chatId: from.id });
      const voice: Voice = { ...fileOfMessage(file), duration, mime_type };
      return userMessage(from, { voice });
    },

    sendAudio(from, bytes, { duration, file_name, mime_type, caption }) {
      const file = files.store(bytes, mime_type, 'music', { name: file_name, chatId: from.id });
      const audio: Audio = { ...fileOfMessage(file), duration, file_name, mime_type };
      return userMessage(from, caption ? { audio, caption } : { audio });
    },

    pressButton(from, messageId, data) {
      const message = chats.of(from).messages.get(messageId);
      const buttons = message?.reply_markup?.inline_keyboard.flat() ?? [];
      if (!buttons.some((button) => 'callback_data' in button && button.callback_data === data)) return null;
      const query: CallbackQuery = {
        id: queryId(from),
        from: { ...from, is_bot: false },
        // The message as it is when pressed; later edits do not change an update already sent.
        message: structuredClone(message!),
        chat_instance: String(-from.id),
        data,
      } as CallbackQuery;
      callbackQueries.set(query.id, Date.now() + callbackQueryMs);
      return updates.push({ callback_query: query });
    },

    blockBot(userId) {
      const user = chats.userOf(userId);
      if (blockedBy.has(userId) || !user) return;
      blockedBy.add(userId);
      memberUpdate(user, 'member', 'kicked');
    },

    unblockBot(userId) {
      const user = chats.userOf(userId);
      if (user) unblock(user);
    },
  };

  return {
    handlers,
    userSide,
    userMessage,
    botMessage,
    replyMarkup,
    queryId,
    /** Whether the user of this chat blocked the bot: every call to the chat is then refused. */
    isBlocked: (chatId: number) => blockedBy.has(chatId),
  };
}

function parseTelegramHtmlOrRefuse(html: string): { text: string; entities: MessageEntity[] } {
  try {
    return parseTelegramHtml(html);
  } catch (err) {
    if (err instanceof TelegramHtmlError) throw badRequest(err.message);
    throw err;
  }
}
