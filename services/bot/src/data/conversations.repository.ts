import { randomUUID } from 'node:crypto';
import type { ChatDoor, ChatMessageStatus } from '@gpt/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { BotDatabase, ConversationMessagesTable, ConversationsTable } from './schema';

/** A conversation as the assistant keeps it. */
export interface Conversation {
  id: string;
  userId: number;
  title: string | null;
  lastDoor: ChatDoor;
  updatedAt: Date;
}

/** One message of a conversation. */
export interface ConversationMessage {
  id: string;
  conversationId: string;
  userId: number;
  role: 'user' | 'assistant';
  text: string;
  model: string | null;
  cost: number | null;
  door: ChatDoor;
  status: ChatMessageStatus;
  createdAt: Date;
}

/** A turn of the conversation so far, as the prompt takes it. */
export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

export interface SearchHit {
  conversationId: string;
  messageId: string;
  title: string | null;
  snippet: string;
  createdAt: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An id from a path: anything but a uuid names nothing. */
export const isId = (id: string) => UUID.test(id);

/** The longest title taken from a first question. */
const TITLE_CHARS = 80;
export const titleFrom = (question: string) => question.trim().split('\n')[0]!.slice(0, TITLE_CHARS);

const toConversation = (row: Selectable<ConversationsTable>): Conversation => ({
  id: row.id,
  userId: row.user_id,
  title: row.title,
  lastDoor: row.last_door,
  updatedAt: new Date(row.updated_at),
});

const toMessage = (
  row: Omit<Selectable<ConversationMessagesTable>, 'seq' | 'stop_requested'>,
): ConversationMessage => ({
  id: row.id,
  conversationId: row.conversation_id,
  userId: row.user_id,
  role: row.role,
  text: row.text,
  model: row.model,
  cost: row.cost,
  door: row.door,
  status: row.status,
  createdAt: new Date(row.created_at),
});

const MESSAGE_COLUMNS = [
  'id',
  'conversation_id',
  'user_id',
  'role',
  'text',
  'model',
  'cost',
  'door',
  'status',
  'created_at',
] as const;

/** PostgreSQL's unique_violation: here, a second answer in a conversation that has one running. */
const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

/**
 * The users' conversations and their messages (docs/architecture.md, The assistant). A user's current
 * conversation is the one last used at either door: the newest `updated_at`.
 */
export function conversationsRepository(db: Kysely<BotDatabase>) {
  const newestFirst = (userId: number) =>
    db
      .selectFrom('conversations')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('updated_at', 'desc')
      .orderBy('id');
  const conversations = {
    async find(userId: number, id: string): Promise<Conversation | undefined> {
      if (!isId(id)) return undefined;
      const row = await db
        .selectFrom('conversations')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row && toConversation(row);
    },
    /** The user's conversations, the current (last used) first. */
    async list(userId: number): Promise<Conversation[]> {
      return (await newestFirst(userId).execute()).map(toConversation);
    },
    async current(userId: number): Promise<Conversation | undefined> {
      const row = await newestFirst(userId).limit(1).executeTakeFirst();
      return row && toConversation(row);
    },
    /**
     * A fresh conversation becomes current («Новый чат», /new, a new mode); the current one is reused
     * while it has no messages, so pressing it twice leaves no empty conversations behind.
     */
    async start(userId: number, door: ChatDoor): Promise<Conversation> {
      const current = await conversations.current(userId);
      if (current && !(await conversations.hasMessages(current.id))) {
        await conversations.touch(current.id, door);
        return { ...current, lastDoor: door, updatedAt: new Date() };
      }
      const row = await db
        .insertInto('conversations')
        .values({
          id: randomUUID(),
          user_id: userId,
          title: null,
          last_door: door,
          updated_at: new Date(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toConversation(row);
    },
    /** The conversation the bot continues: the current one, or a first one. */
    async currentOrNew(userId: number, door: ChatDoor): Promise<Conversation> {
      return (await conversations.current(userId)) ?? conversations.start(userId, door);
    },
    async hasMessages(id: string): Promise<boolean> {
      const row = await db
        .selectFrom('conversation_messages')
        .select('id')
        .where('conversation_id', '=', id)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    /** Used at a door: it becomes the current conversation. */
    async touch(id: string, door: ChatDoor): Promise<void> {
      await db
        .updateTable('conversations')
        .set({ updated_at: new Date(), last_door: door })
        .where('id', '=', id)
        .execute();
    },
    async rename(userId: number, id: string, title: string): Promise<Conversation | undefined> {
      if (!isId(id)) return undefined;
      const row = await db
        .updateTable('conversations')
        .set({ title })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returningAll()
        .executeTakeFirst();
      return row && toConversation(row);
    },
    /** Deletes the conversation with its messages; false when the user has no such conversation. */
    async remove(userId: number, id: string): Promise<boolean> {
      if (!isId(id)) return false;
      const deleted = await db
        .deleteFrom('conversations')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return deleted.numDeletedRows > 0n;
    },
    /** The conversation so far, oldest first: the newest `limit` questions and answers that were given. */
    async history(id: string, limit: number): Promise<Turn[]> {
      const rows = await db
        .selectFrom('conversation_messages')
        .select(['role', 'text'])
        .where('conversation_id', '=', id)
        .where('status', 'in', ['done', 'stopped'])
        .where('text', '<>', '')
        .orderBy('seq', 'desc')
        .limit(limit)
        .execute();
      return rows.reverse().map((row) => ({ role: row.role, content: row.text }));
    },
    async messages(id: string): Promise<ConversationMessage[]> {
      const rows = await db
        .selectFrom('conversation_messages')
        .select(MESSAGE_COLUMNS)
        .where('conversation_id', '=', id)
        .orderBy('seq')
        .execute();
      return rows.map(toMessage);
    },
    /** The answer running in the conversation, if any. */
    async running(id: string): Promise<string | null> {
      const row = await db
        .selectFrom('conversation_messages')
        .select('id')
        .where('conversation_id', '=', id)
        .where('status', '=', 'streaming')
        .executeTakeFirst();
      return row?.id ?? null;
    },
    /**
     * The question and its answer, empty and streaming, at once: null when the conversation already has an
     * answer running (the database's unique index decides, across replicas). The first question titles it.
     */
    async beginExchange(input: {
      conversationId: string;
      userId: number;
      door: ChatDoor;
      question: string;
      model: string;
    }): Promise<{ question: ConversationMessage; answerId: string } | null> {
      const base = {
        conversation_id: input.conversationId,
        user_id: input.userId,
        door: input.door,
      };
      try {
        return await db.transaction().execute(async (trx) => {
          const question = await trx
            .insertInto('conversation_messages')
            .values({
              ...base,
              id: randomUUID(),
              role: 'user',
              text: input.question,
              model: null,
              cost: null,
              status: 'done',
            })
            .returning(MESSAGE_COLUMNS)
            .executeTakeFirstOrThrow();
          const answerId = randomUUID();
          await trx
            .insertInto('conversation_messages')
            .values({
              ...base,
              id: answerId,
              role: 'assistant',
              text: '',
              model: input.model,
              cost: null,
              status: 'streaming',
            })
            .execute();
          await trx
            .updateTable('conversations')
            .set({
              updated_at: new Date(),
              last_door: input.door,
              title: sql<string>`coalesce(title, ${titleFrom(input.question)})`,
            })
            .where('id', '=', input.conversationId)
            .execute();
          return { question: toMessage(question), answerId };
        });
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
    },
    /** The question's text once known (a voice message's transcript). */
    async setQuestion(id: string, text: string): Promise<void> {
      await db.updateTable('conversation_messages').set({ text }).where('id', '=', id).execute();
      await db
        .updateTable('conversations')
        .set({ title: sql`coalesce(nullif(title, ''), ${titleFrom(text)})` })
        .where('id', '=', sql<string>`(SELECT conversation_id FROM conversation_messages WHERE id = ${id})`)
        .execute();
    },
    /** The exchange was refused before the model was asked (no credits): neither message stays. */
    async discardExchange(questionId: string, answerId: string): Promise<void> {
      await db.deleteFrom('conversation_messages').where('id', 'in', [questionId, answerId]).execute();
    },
    /** The answer's text so far, for every replica; answers whether «Остановить» was pressed meanwhile. */
    async saveProgress(answerId: string, text: string): Promise<boolean> {
      const row = await db
        .updateTable('conversation_messages')
        .set({ text })
        .where('id', '=', answerId)
        .where('status', '=', 'streaming')
        .returning('stop_requested')
        .executeTakeFirst();
      return row?.stop_requested ?? false;
    },
    async finishAnswer(
      answerId: string,
      outcome: {
        text: string;
        status: Exclude<ChatMessageStatus, 'streaming'>;
        cost: number | null;
      },
    ): Promise<ConversationMessage | undefined> {
      const row = await db
        .updateTable('conversation_messages')
        .set(outcome)
        .where('id', '=', answerId)
        .where('status', '=', 'streaming')
        .returning(MESSAGE_COLUMNS)
        .executeTakeFirst();
      return row && toMessage(row);
    },
    /** An answer whose process stopped or died: the text saved so far stays, as failed. */
    async markInterrupted(answerId: string): Promise<void> {
      if (!isId(answerId)) return;
      await db
        .updateTable('conversation_messages')
        .set({ status: 'failed' })
        .where('id', '=', answerId)
        .where('status', '=', 'streaming')
        .execute();
    },
    /** An answer of this user (another's, or none: undefined). */
    async answer(userId: number, answerId: string): Promise<ConversationMessage | undefined> {
      if (!isId(answerId)) return undefined;
      const row = await db
        .selectFrom('conversation_messages')
        .select(MESSAGE_COLUMNS)
        .where('id', '=', answerId)
        .where('user_id', '=', userId)
        .where('role', '=', 'assistant')
        .executeTakeFirst();
      return row && toMessage(row);
    },
    /** «Остановить» for an answer another replica runs: it sees the mark at its next save. */
    async requestStop(answerId: string): Promise<void> {
      await db
        .updateTable('conversation_messages')
        .set({ stop_requested: true })
        .where('id', '=', answerId)
        .where('status', '=', 'streaming')
        .execute();
    },
    /** The user's messages holding every word of `query` in any form (PostgreSQL full text, Russian), best first. */
    async search(userId: number, query: string, limit: number): Promise<SearchHit[]> {
      const q = sql`plainto_tsquery('russian', ${query})`;
      const rows = await db
        .selectFrom('conversation_messages as m')
        .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
        .select([
          'm.id',
          'm.conversation_id',
          'm.created_at',
          'c.title',
          sql<string>`ts_headline('russian', m.text, ${q}, 'StartSel=**, StopSel=**, MaxWords=25, MinWords=8')`.as(
            'snippet',
          ),
        ])
        .where('m.user_id', '=', userId)
        .where(sql<boolean>`to_tsvector('russian', m.text) @@ ${q}`)
        .orderBy(sql`ts_rank(to_tsvector('russian', m.text), ${q})`, 'desc')
        .orderBy('m.seq', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        conversationId: row.conversation_id,
        messageId: row.id,
        title: row.title,
        snippet: row.snippet,
        createdAt: new Date(row.created_at),
      }));
    },
    /** Accounts were linked: the merged account's conversations are the survivor's. */
    async moveTo(fromUserId: number, toUserId: number): Promise<void> {
      await db.updateTable('conversations').set({ user_id: toUserId }).where('user_id', '=', fromUserId).execute();
      await db
        .updateTable('conversation_messages')
        .set({ user_id: toUserId })
        .where('user_id', '=', fromUserId)
        .execute();
    },
  };
  return conversations;
}

export type ConversationsRepository = ReturnType<typeof conversationsRepository>;
