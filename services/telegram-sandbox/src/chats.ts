import type { Chat, Message, User } from 'grammy/types';
import { waitToBeWoken, type Poller } from './long-poll';
import type { ChatLogEntry, SandboxUser } from './types';

export interface SandboxChat {
  chat: Chat.PrivateChat;
  messages: Map<number, Message>;
  version: number;
}

/** Now as Telegram dates what happens: Unix seconds. */
export const unixTime = () => Math.floor(Date.now() / 1000);

export type SandboxChats = ReturnType<typeof createChats>;

/**
 * The private chats of the sandbox's users with the bot `botId`: each message as it is now (edited,
 * deleted ones gone), at most `maxChatMessages` a chat, oldest forgotten first, and a version that grows
 * with every change, which the user's side waits on.
 */
export function createChats(botId: number, maxChatMessages: number) {
  const chats = new Map<number, SandboxChat>();
  /** Who waits for a chat to change (the user's side of the sandbox), by chat id. */
  const watchers = new Map<number, Set<Poller>>();
  let nextMessageId = 1;
  let closed = false;

  /** The chat with `user`, made on their first message. */
  function of(user: SandboxUser): SandboxChat {
    let entry = chats.get(user.id);
    if (!entry) {
      const chat: Chat.PrivateChat = { id: user.id, type: 'private', first_name: user.first_name };
      if (user.last_name) chat.last_name = user.last_name;
      if (user.username) chat.username = user.username;
      entry = { chat, messages: new Map(), version: 0 };
      chats.set(user.id, entry);
    }
    return entry;
  }

  function changed(entry: SandboxChat): void {
    entry.version++;
    for (const watcher of watchers.get(entry.chat.id) ?? []) watcher.wake();
  }

  return {
    of,
    changed,
    get: (chatId: number) => chats.get(chatId),

    /** The user of a private chat the sandbox knows, as their chat names them. */
    userOf(userId: number): SandboxUser | undefined {
      const chat = chats.get(userId)?.chat;
      if (!chat) return undefined;
      return {
        id: userId,
        first_name: chat.first_name,
        ...(chat.last_name ? { last_name: chat.last_name } : {}),
        ...(chat.username ? { username: chat.username } : {}),
      };
    },

    /** A new message from `from` in the chat, dated now. */
    post(entry: SandboxChat, from: User, fields: Partial<Message>): Message {
      const message = { message_id: nextMessageId++, from, chat: entry.chat, date: unixTime(), ...fields } as Message;
      entry.messages.set(message.message_id, message);
      for (const id of entry.messages.keys()) {
        if (entry.messages.size <= maxChatMessages) break;
        entry.messages.delete(id);
      }
      changed(entry);
      return message;
    },

    log(chatId: number): ChatLogEntry[] {
      const messages = [...(chats.get(chatId)?.messages.values() ?? [])];
      return messages.map((message) => {
        const entry: ChatLogEntry = {
          message_id: message.message_id,
          from: message.from?.id === botId ? 'bot' : 'user',
          text: message.text ?? message.caption ?? '',
          message,
        };
        if (message.reply_markup) entry.reply_markup = message.reply_markup;
        return entry;
      });
    },

    version: (chatId: number) => chats.get(chatId)?.version ?? 0,

    async change(chatId: number, after: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
      if ((chats.get(chatId)?.version ?? 0) > after || closed || signal?.aborted) return;
      let group = watchers.get(chatId);
      if (!group) watchers.set(chatId, (group = new Set()));
      await waitToBeWoken(group, timeoutMs, (wake) => signal?.addEventListener('abort', wake, { once: true }));
      if (group.size === 0) watchers.delete(chatId);
    },

    forget(chatId: number): void {
      chats.delete(chatId);
      for (const watcher of watchers.get(chatId) ?? []) watcher.wake();
    },

    /** Ends every wait for a change. */
    close(): void {
      closed = true;
      for (const group of watchers.values()) for (const watcher of group) watcher.wake();
    },
  };
}
