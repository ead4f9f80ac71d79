import { randomBytes } from 'node:crypto';
import {
  ARTICLE_IMAGE_MAX_BYTES,
  ARTICLE_MEDIA_PATH,
  ArticleImageResponse,
  ArticleMediaIdParams,
} from '@gpt/contracts';
import { mediaStore, readImageMultipart, requireAuth, respond, sendImage, type ImageRules } from '@gpt/kit';
import { Router } from 'express';
import type { ContentDeps } from '../deps';
import { contentErrors } from '../domain/errors';

/** An image in an article's body: PNG, JPEG, WebP or GIF by its content, at most 5 MB. */
const ARTICLE_IMAGE_RULES: ImageRules = {
  types: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
  maxBytes: ARTICLE_IMAGE_MAX_BYTES,
  tooLarge: contentErrors.imageTooLarge,
};

/** Images of article bodies: admins upload them, anyone reads them (the public article page shows them). */
export function articleMediaRouter(deps: ContentDeps): Router {
  const admin = requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv, role: 'admin' });

  return Router()
    .post('/api/admin/article_media', admin, async (req, res) => {
      if (!req.is('multipart/form-data')) {
        throw contentErrors.imageNotMultipart();
      }
      const { image } = await readImageMultipart(req, ARTICLE_IMAGE_RULES);
      if (!image) throw contentErrors.imageRequired();
      const id = randomBytes(16).toString('hex');
      await mediaStore.insert(deps.db, { id, ...image });
      respond(res, ArticleImageResponse, { success: true, url: `${ARTICLE_MEDIA_PATH}/${id}` }, 201);
    })
    .get(`${ARTICLE_MEDIA_PATH}/:id`, async (req, res) => {
      const params = ArticleMediaIdParams.safeParse(req.params);
      if (!params.success) throw contentErrors.imageNotFound();
      const image = await mediaStore.find(deps.db, params.data.id);
      if (!image) throw contentErrors.imageNotFound();
      // Published with an article: shared caches may keep it as long as the browser does.
      sendImage(res, image, 'public');
    });
}
