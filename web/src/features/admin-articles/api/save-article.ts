import { AdminArticleResponse, type AdminArticle, type ArticleInput, type RequestBody } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { adminArticlesKey } from './get-admin-articles';

/** What the form sends: every field of the article (docs/product.md, Data), as POST and PUT take it. */
export type ArticleBody = RequestBody<typeof ArticleInput>;

/** POST /api/admin/articles (no id) or PUT /api/admin/articles/{id}; answers the stored article. */
export async function saveArticle({ id, ...body }: ArticleBody & { id?: number }): Promise<AdminArticle> {
  const { article } =
    id === undefined
      ? await api.post(apiPath('postAdminArticles'), AdminArticleResponse, body)
      : await api.put(apiPath('putAdminArticlesById', { id }), AdminArticleResponse, body);
  return article;
}

/** After a save the list reloads (docs/product.md, States), and the public pages read the new text. */
export function useSaveArticle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveArticle,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminArticlesKey }),
        queryClient.invalidateQueries({ queryKey: ['articles'] }),
      ]);
    },
  });
}
