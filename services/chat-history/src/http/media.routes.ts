import { answered, mediaStore, routeHandlers, sendImage } from '@gpt/kit';
import type { ChatHistoryDeps } from '../deps';
import { chatHistoryErrors } from '../domain/errors';

/** Attached images, public by their unguessable id (an <img> cannot send a token). */
export function mediaRoutes(deps: ChatHistoryDeps) {
  return routeHandlers('chat-history', {
    getMediaById: {
      invalidParams: chatHistoryErrors.imageNotFound,
      handle: async ({ params, res }) => {
        const media = await mediaStore.find(deps.db, params.id);
        if (!media) throw chatHistoryErrors.imageNotFound();
        // An image never changes under its id; it is private to whoever holds the link.
        sendImage(res, media, 'private');
        return answered;
      },
    },
  });
}
