import { useMutation, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { adminArticlesKey } from './get-admin-articles';

/** DELETE /api/admin/articles/{id} */
export async function deleteArticle(id: number): Promise<void> {
  await callRoute('deleteAdminArticlesById', { params: { id } });
}

/** After a delete the list reloads (docs/product.md, States). */
export function useDeleteArticle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteArticle,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminArticlesKey }),
        queryClient.invalidateQueries({ queryKey: ['articles'] }),
      ]);
    },
  });
}
