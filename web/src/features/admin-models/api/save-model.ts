import { type AiModel, type AiModelInput, type RequestBody } from '@gpt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { callRoute } from '@/lib/api-client';

import { adminModelsKey } from './get-admin-models';

/**
 * The body of POST /api/admin/models and PUT /api/admin/models/{id} (docs/product.md, Calls); prices in dollars per
 * 1M tokens, the image price in dollars per generated image (null: not an image model).
 */
export type ModelBody = RequestBody<typeof AiModelInput>;

/** Creates (no id) or replaces (id) a model; answers the stored model. */
export async function saveModel({ id, ...body }: ModelBody & { id?: number }, key: string): Promise<AiModel> {
  const options = { headers: actionKeyHeaders(key) };
  const { model } =
    id === undefined
      ? await callRoute('postAdminModels', { body, ...options })
      : await callRoute('putAdminModelsById', { params: { id }, body, ...options });
  return model;
}

/** After a save the list reloads (docs/product.md, States). */
/** `key`: the Idempotency-Key of the opened form. */
export function useSaveModel(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ModelBody & { id?: number }) => saveModel(body, key),
    ...keyedActionRetry,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminModelsKey }),
  });
}
