import { ArticleImageResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';

import { api } from '@/lib/api-client';

/** POST /api/admin/article_media: stores the image with the product's media; answers where it is served. */
export async function uploadArticleImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  const { url } = await api.post(apiPath('postAdminArticleMedia'), ArticleImageResponse, form);
  return url;
}
