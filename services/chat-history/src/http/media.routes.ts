import { MediaIdParams } from '@gpt/contracts';
import { mediaStore, sendImage } from '@gpt/kit';
import { Router } from 'express';
import type { ChatHistoryDeps } from '../deps';
import { chatHistoryErrors } from '../domain/errors';

/** Attached images, public by their unguessable id (an <img> cannot send a token). */
export function mediaRouter(deps: ChatHistoryDeps): Router {
  return Router().get('/api/media/:id', async (req, res) => {
    const params = MediaIdParams.safeParse(req.params);
    if (!params.success) throw chatHistoryErrors.imageNotFound();
    const media = await mediaStore.find(deps.db, params.data.id);
    if (!media) throw chatHistoryErrors.imageNotFound();
    // An image never changes under its id; it is private to whoever holds the link.
    sendImage(res, media, 'private');
  });
}
