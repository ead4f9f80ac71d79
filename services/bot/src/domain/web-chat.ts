import type {
  ChatConversation,
  ChatConversationDetail,
  ChatMessage,
  ChatPreferences,
  ChatPreferencesUpdate,
  ChatSearchResponse,
} from '@gpt/contracts';
import { chatPreferencesRepository } from '../data/chat-preferences.repository';
import { chatsRepository } from '../data/chats.repository';
import { conversationsRepository, type Conversation, type ConversationMessage } from '../data/conversations.repository';
import type { BotDeps } from '../deps';
import { beginAsking, type AnswerSink, type Insufficient, type Speaker } from './ask';
import { chatModels, modelFor, type Catalog } from './catalog';
import { conversationMarkdown } from './chat-export';
import { chatErrors } from './errors';

/** What a use case of the web door needs: the bot's deps, less Telegram. */
export type WebChatDeps = Pick<
  BotDeps,
  'db' | 'logger' | 'services' | 'provider' | 'catalog' | 'limiter' | 'generations' | 'answers'
>;

const SEARCH_HITS = 50;
/** A conversation with no title yet is shown so. */
export const UNTITLED = 'Новый чат';

export const conversationView = (conversation: Conversation, current: boolean): ChatConversation => ({
  id: conversation.id,
  title: conversation.title || UNTITLED,
  updatedAt: conversation.updatedAt.toISOString(),
  lastDoor: conversation.lastDoor,
  current,
});

export const messageView = (message: ConversationMessage): ChatMessage => ({
  id: message.id,
  role: message.role,
  text: message.text,
  model: message.role === 'assistant' ? message.model : null,
  cost: message.cost,
  door: message.door,
  createdAt: message.createdAt.toISOString(),
  status: message.status,
});

/** The user's model, mode and instructions: their Telegram chat's when they have one (shared with the bot), else the web's own. */
async function preferencesOf(deps: Pick<WebChatDeps, 'db'>, userId: number) {
  const [chat] = await chatsRepository(deps.db).findByUser(userId);
  if (chat) return { chat, model: chat.model, modeId: chat.modeId, instructions: chat.instructions };
  const own = await chatPreferencesRepository(deps.db).find(userId);
  return {
    chat: undefined,
    model: own?.model ?? null,
    modeId: own?.modeId ?? null,
    instructions: own?.instructions ?? null,
  };
}

/** The web door's asker: the user, with their Telegram identity for billing when they have one (never their chat: nothing is sent there). */
async function speakerOf(deps: Pick<WebChatDeps, 'db'>, userId: number) {
  const preferences = await preferencesOf(deps, userId);
  const speaker: Speaker = {
    userId,
    telegramId: preferences.chat?.telegramId ?? null,
    chatId: null,
    modeId: preferences.modeId,
    instructions: preferences.instructions,
    voiceReplies: false,
  };
  return { speaker, model: preferences.model };
}

export async function listConversations(deps: Pick<WebChatDeps, 'db'>, userId: number): Promise<ChatConversation[]> {
  const all = await conversationsRepository(deps.db).list(userId);
  return all.map((conversation, index) => conversationView(conversation, index === 0));
}

/** «Новый чат»: it becomes current at both doors. */
export async function newConversation(deps: Pick<WebChatDeps, 'db'>, userId: number): Promise<ChatConversation> {
  return conversationView(await conversationsRepository(deps.db).start(userId, 'web'), true);
}

async function ownConversation(deps: Pick<WebChatDeps, 'db'>, userId: number, id: string) {
  const conversation = await conversationsRepository(deps.db).find(userId, id);
  if (!conversation) throw chatErrors.conversationNotFound();
  return conversation;
}

const isCurrent = async (deps: Pick<WebChatDeps, 'db'>, conversation: Conversation) =>
  (await conversationsRepository(deps.db).current(conversation.userId))?.id === conversation.id;

export async function conversationDetail(
  deps: Pick<WebChatDeps, 'db'>,
  userId: number,
  id: string,
): Promise<ChatConversationDetail> {
  const conversation = await ownConversation(deps, userId, id);
  const conversations = conversationsRepository(deps.db);
  const [messages, running, current] = [
    await conversations.messages(id),
    await conversations.running(id),
    await isCurrent(deps, conversation),
  ];
  return {
    conversation: conversationView(conversation, current),
    messages: messages.map(messageView),
    running: running ? { answerId: running } : null,
  };
}

export async function renameConversation(
  deps: Pick<WebChatDeps, 'db'>,
  userId: number,
  id: string,
  title: string,
): Promise<ChatConversation> {
  const renamed = await conversationsRepository(deps.db).rename(userId, id, title);
  if (!renamed) throw chatErrors.conversationNotFound();
  return conversationView(renamed, await isCurrent(deps, renamed));
}

/** Deletes a conversation, not while an answer runs in it (it would be charged with nowhere to go). */
export async function deleteConversation(deps: Pick<WebChatDeps, 'db'>, userId: number, id: string): Promise<void> {
  await ownConversation(deps, userId, id);
  const conversations = conversationsRepository(deps.db);
  if (await conversations.running(id)) throw chatErrors.answerRunning();
  await conversations.remove(userId, id);
}

/** The web door shows an answer through its job's readers; nothing more is sent anywhere. */
const webSink: AnswerSink = {
  start: async () => undefined,
  progress: () => undefined,
  finish: async () => undefined,
  stopped: async () => undefined,
  fail: async () => undefined,
  heard: async () => undefined,
  voice: async () => undefined,
  voiceFailed: async () => undefined,
};

export type WebAskOutcome =
  | { kind: 'begun'; answerId: string; message: ChatMessage }
  | Insufficient
  | { kind: 'busy' }
  | { kind: 'rateLimited'; waitSec: number }
  | { kind: 'noModels' };

/**
 * A question asked on the web: the same engine as the bot's (domain/ask.ts) in the chosen conversation,
 * which becomes current; the answer runs as a job on the server and outlives this request.
 */
export async function askOnWeb(
  deps: WebChatDeps,
  userId: number,
  conversationId: string,
  text: string,
): Promise<WebAskOutcome> {
  await ownConversation(deps, userId, conversationId);
  const catalog = await deps.catalog.get();
  const waitSec = await deps.limiter.consume(userId, catalog.settings.messagesPerMinute);
  if (waitSec > 0) return { kind: 'rateLimited', waitSec };
  const { speaker, model: chosen } = await speakerOf(deps, userId);
  const model = modelFor(catalog, chosen);
  if (!model) return { kind: 'noModels' };
  const begun = await beginAsking(deps, {
    speaker,
    door: 'web',
    conversationId,
    catalog,
    model,
    userMessage: text,
    content: text,
  });
  if (begun.kind !== 'begun') return begun;
  void begun
    .run(webSink)
    .catch((err: unknown) => deps.logger.error({ err, answerId: begun.answerId }, 'the web answer failed'));
  return { kind: 'begun', answerId: begun.answerId, message: messageView(begun.question) };
}

/** «Остановить» at either door: here at once, or through the database for the replica that runs it. */
export async function stopAnswer(deps: Pick<WebChatDeps, 'db' | 'answers'>, userId: number, answerId: string) {
  const conversations = conversationsRepository(deps.db);
  const answer = await conversations.answer(userId, answerId);
  if (!answer) throw chatErrors.answerNotFound();
  if (answer.status === 'streaming' && !deps.answers.stopHere(answerId)) await conversations.requestStop(answerId);
  return {};
}

/** «Экспорт»: the file's name and its Markdown. */
export async function exportConversation(deps: Pick<WebChatDeps, 'db'>, userId: number, id: string) {
  const conversation = await ownConversation(deps, userId, id);
  const messages = await conversationsRepository(deps.db).messages(id);
  return {
    fileName: `chat-${id}.md`,
    markdown: conversationMarkdown(conversation.title || UNTITLED, messages),
  };
}

export async function searchConversations(
  deps: Pick<WebChatDeps, 'db'>,
  userId: number,
  query: string,
): Promise<ChatSearchResponse> {
  const hits = await conversationsRepository(deps.db).search(userId, query, SEARCH_HITS);
  return {
    items: hits.map((hit) => ({
      conversationId: hit.conversationId,
      messageId: hit.messageId,
      title: hit.title || UNTITLED,
      snippet: hit.snippet,
      createdAt: hit.createdAt.toISOString(),
    })),
  };
}

function preferencesView(catalog: Catalog, preferences: Awaited<ReturnType<typeof preferencesOf>>): ChatPreferences {
  return {
    model: modelFor(catalog, preferences.model)?.model ?? '',
    models: chatModels(catalog).map((model) => ({ id: model.model, name: model.model })),
    modeId: preferences.modeId === null ? null : String(preferences.modeId),
    modes: catalog.modes.map((mode) => ({ id: String(mode.id), name: `${mode.emoji} ${mode.name}`.trim() })),
    instructions: preferences.instructions ?? '',
  };
}

export async function getPreferences(deps: Pick<WebChatDeps, 'db' | 'catalog'>, userId: number) {
  return preferencesView(await deps.catalog.get(), await preferencesOf(deps, userId));
}

/** Changes the model, mode or instructions: the Telegram chat's when the user has one, so the bot answers alike. */
export async function updatePreferences(
  deps: Pick<WebChatDeps, 'db' | 'catalog'>,
  userId: number,
  update: ChatPreferencesUpdate,
): Promise<ChatPreferences> {
  const catalog = await deps.catalog.get();
  if (update.model !== undefined && !chatModels(catalog).some((model) => model.model === update.model))
    throw chatErrors.unknownModel();
  const modeId = update.modeId === undefined || update.modeId === null ? update.modeId : Number(update.modeId);
  if (modeId !== undefined && modeId !== null && !catalog.modes.some((mode) => mode.id === modeId))
    throw chatErrors.unknownMode();
  const instructions = update.instructions === undefined ? undefined : update.instructions || null;

  const current = await preferencesOf(deps, userId);
  const chosen = {
    ...current,
    model: update.model ?? current.model,
    modeId: modeId === undefined ? current.modeId : modeId,
    instructions: instructions === undefined ? current.instructions : instructions,
  };
  if (current.chat) {
    const chats = chatsRepository(deps.db);
    const { telegramId } = current.chat;
    if (update.model !== undefined) await chats.setModel(telegramId, update.model);
    if (modeId !== undefined) await chats.setMode(telegramId, modeId);
    if (instructions !== undefined) await chats.setInstructions(telegramId, instructions);
  } else await chatPreferencesRepository(deps.db).save(userId, chosen);
  // What was chosen, not read again: a concurrent change must not answer for this one.
  return preferencesView(catalog, chosen);
}
