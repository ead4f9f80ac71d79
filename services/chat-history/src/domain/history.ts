import type { AdminHistoryQuery, HistoryExportQuery, HistoryMessage } from '@gpt/contracts';
import type { Kysely } from 'kysely';
import { type HistoryCursor, type HistoryFilter, messagesRepository } from '../data/messages.repository';
import type { ChatHistoryDatabase } from '../data/schema';
import { chatHistoryErrors } from './errors';

type Db = Kysely<ChatHistoryDatabase>;

/** Rows fetched per round trip while exporting. */
const EXPORT_BATCH = 1000;

function filterOf(query: { userId?: number | undefined; username?: string | undefined; message?: string | undefined }) {
  const filter: HistoryFilter = { userId: query.userId, username: query.username, message: query.message };
  return filter;
}

export function historyUseCases(db: Db) {
  return {
    list(query: AdminHistoryQuery) {
      return messagesRepository(db).list(
        filterOf(query),
        { field: query.sortField, order: query.sortOrder },
        { offset: (query.page - 1) * query.limit, limit: query.limit },
      );
    },

    async get(id: number): Promise<HistoryMessage> {
      const message = await messagesRepository(db).findById(id);
      if (!message) throw chatHistoryErrors.messageNotFound();
      return message;
    },

    /**
     * The neighbour in the list's default order (newest first): 'prev' is the row above (newer),
     * 'next' the row below (older); within one user's messages when `userId` is given. Null at the list's end, an
     * answer like any other (the detail dialog asks for both neighbours of every message it shows), not a 404.
     */
    async neighbour(id: number, which: 'prev' | 'next', userId?: number): Promise<HistoryMessage | null> {
      const found = await messagesRepository(db).neighbour(id, which === 'prev' ? 'newer' : 'older', userId);
      if (found) return found;
      if (!(await messagesRepository(db).exists(id))) throw chatHistoryErrors.messageNotFound();
      return null;
    },

    /** Every message the list would show for these filters, in its order, a batch at a time. */
    async *export(query: HistoryExportQuery): AsyncGenerator<HistoryMessage[]> {
      const sort = { field: query.sortField, order: query.sortOrder };
      let cursor: HistoryCursor | null = null;
      do {
        const batch = await messagesRepository(db).batch(filterOf(query), sort, cursor, EXPORT_BATCH);
        if (batch.messages.length > 0) yield batch.messages;
        cursor = batch.next;
      } while (cursor);
    },
  };
}
