import { answered, routeHandlers } from '@gpt/kit';
import type { Response } from 'express';
import type { ChatHistoryDeps } from '../deps';
import { csvHead, csvRows } from '../domain/history-csv';
import { historyUseCases } from '../domain/history';

/**
 * Writes a chunk and waits while the client's socket is full, so a slow download holds one batch
 * at a time. False when the client has gone away.
 */
function write(res: Response, chunk: string): Promise<boolean> {
  if (res.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const settle = (open: boolean) => () => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(open);
    };
    const onDrain = settle(true);
    const onClose = settle(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

/** The message history for admins: list, export, one message and its neighbours (docs/product.md, Calls). */
export function historyRoutes(deps: ChatHistoryDeps) {
  const history = historyUseCases(deps.db);
  return routeHandlers('chat-history', {
    getAdminHistory: ({ query }) => history.list(query),
    getAdminHistoryExport: async ({ query, res }) => {
      const { format } = query;
      const batches = history.export(query);
      // The first batch is read before the headers go out, so a database failure is still a JSON error.
      const first = await batches.next();
      const day = new Date().toISOString().slice(0, 10);
      res
        .status(200)
        .type('text/csv; charset=utf-8')
        .set('Content-Disposition', `attachment; filename="history-${day}${format === 'excel' ? '-excel' : ''}.csv"`)
        .set('Cache-Control', 'no-store');
      let open = await write(res, csvHead(format));
      if (!first.done) {
        open &&= await write(res, csvRows(first.value, format));
        for await (const batch of batches) {
          if (!open) break;
          open = await write(res, csvRows(batch, format));
        }
      }
      res.end();
      return answered;
    },
    getAdminHistoryPrevById: ({ params, query }) => history.neighbour(params.id, 'prev', query.userId),
    getAdminHistoryNextById: ({ params, query }) => history.neighbour(params.id, 'next', query.userId),
    getAdminHistoryById: ({ params }) => history.get(params.id),
  });
}
