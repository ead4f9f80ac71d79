import { MediaIdParams } from '@gpt/contracts';
import { notFound } from '@gpt/kit';
import { Router } from 'express';
import type { ChatHistoryDeps } from '../deps';
import { mediaRepository } from '../data/media.repository';

const imageNotFound = () => notFound('Изображение не найдено', 'image_not_found');

/** Attached images, public by their unguessable id (an <img> cannot send a token). */
export function mediaRouter(deps: ChatHistoryDeps): Router {
  return Router().get('/api/media/:id', async (req, res) => {
    const params = MediaIdParams.safeParse(req.params);
    if (!params.success) throw imageNotFound();
    const media = await mediaRepository.find(deps.db, params.data.id);
    if (!media) throw imageNotFound();
    res
      .status(200)
      .type(media.contentType)
      .set({
        // An image never changes under its id; it is private to whoever holds the link.
        'Cache-Control': 'private, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'",
        'Content-Disposition': 'inline',
      })
      .send(Buffer.from(media.data));
  });
}
