import { callRoute } from '@/lib/api-client';

/** POST /api/admin/article_media: stores the image with the product's media; answers where it is served. */
export async function uploadArticleImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  const { url } = await callRoute('postAdminArticleMedia', { body: form });
  return url;
}
