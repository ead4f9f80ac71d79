import { routeHandlers } from '@gpt/kit';
import type { ChatHistoryDeps } from '../deps';
import { modesUseCases } from '../domain/modes';

/** Admin CRUD of the chat modes, and the modes the bot offers in /mode (the active ones, in their order). */
export function modesRoutes(deps: ChatHistoryDeps) {
  const modes = modesUseCases(deps.db, deps.logger);
  return routeHandlers('chat-history', {
    getAdminModes: ({ query }) => modes.list(query),
    postAdminModes: async ({ body }) => ({ success: true, mode: await modes.create(body) }),
    putAdminModesById: async ({ params, body }) => ({ success: true, mode: await modes.update(params.id, body) }),
    deleteAdminModesById: async ({ params }) => {
      await modes.remove(params.id);
      return { success: true };
    },
    getBotModes: async () => ({ modes: await modes.listActive() }),
  });
}
