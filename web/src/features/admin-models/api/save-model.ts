import { AiModelResponse, type AiModel, type AiModelInput, type RequestBody } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { adminModelsKey } from './get-admin-models';

/**
 * The body of POST /api/admin/models and PUT /api/admin/models/{id} (docs/product.md, Calls); prices in dollars per
 * 1M tokens, the image price in dollars per generated image (null: not an image model).
 */
export type ModelBody = RequestBody<typeof AiModelInput>;

/** Creates (no id) or replaces (id) a model; answers the stored model. */
export async function saveModel({ id, ...body }: ModelBody & { id?: number }): Promise<AiModel> {
  const { model } =
    id === undefined
      ? await api.post(apiPath('postAdminModels'), AiModelResponse, body)
      : await api.put(apiPath('putAdminModelsById', { id }), AiModelResponse, body);
  return model;
}

/** After a save the list reloads (docs/product.md, States). */
export function useSaveModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveModel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminModelsKey }),
  });
}
