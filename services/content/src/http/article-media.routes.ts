import { randomBytes } from 'node:crypto';
import { ARTICLE_IMAGE_MAX_BYTES, ARTICLE_MEDIA_PATH } from '@gpt/contracts';
import { answered, mediaStore, readImageMultipart, routeHandlers, sendImage, type ImageRules } from '@gpt/kit';
import type { ContentDeps } from '../deps';
import { contentErrors } from '../domain/errors';

/** An image in an article's body: PNG, JPEG, WebP or GIF by its content, at most 5 MB. */
const ARTICLE_IMAGE_RULES: ImageRules = {
  types: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
  maxBytes: ARTICLE_IMAGE_MAX_BYTES,
  tooLarge: contentErrors.imageTooLarge,
};

/** Images of article bodies: admins upload them, anyone reads them (the public article page shows them). */
export function articleMediaRoutes(deps: ContentDeps) {
  return routeHandlers('content', {
    postAdminArticleMedia: async ({ req }) => {
      if (!req.is('multipart/form-data')) throw contentErrors.imageNotMultipart();
      const { image } = await readImageMultipart(req, ARTICLE_IMAGE_RULES);
      if (!image) throw contentErrors.imageRequired();
      const id = randomBytes(16).toString('hex');
      await mediaStore.insert(deps.db, { id, ...image });
      return { success: true, url: `${ARTICLE_MEDIA_PATH}/${id}` };
    },
    getArticleMediaById: {
      invalidParams: contentErrors.imageNotFound,
      handle: async ({ params, res }) => {
        const image = await mediaStore.find(deps.db, params.id);
        if (!image) throw contentErrors.imageNotFound();
        // Published with an article: shared caches may keep it as long as the browser does.
        sendImage(res, image, 'public');
        return answered;
      },
    },
  });
}
