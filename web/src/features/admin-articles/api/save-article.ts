import { type AdminArticle, type ArticleInput, type RequestBody } from '@gpt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { adminArticlesKey } from './get-admin-articles';

/** What the form sends: every field of the article (docs/product.md, Data), as POST and PUT take it. */
export type ArticleBody = RequestBody<typeof ArticleInput>;

/** POST /api/admin/articles (no id) or PUT /api/admin/articles/{id}; answers the stored article. */
export async function saveArticle({ id, ...body }: ArticleBody & { id?: number }): Promise<AdminArticle> {
  const { article } =
    id === undefined
      ? await callRoute('postAdminArticles', { body })
      : await callRoute('putAdminArticlesById', { params: { id }, body });
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
