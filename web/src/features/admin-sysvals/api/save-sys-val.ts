import { type SysVal } from '@gpt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '@/lib/action-key';
import { callRoute } from '@/lib/api-client';

import { sysValsKey } from './get-sys-vals';

/** POST /api/admin/sys_vals with key and value. */
export async function createSysVal(body: { key: string; value: string }, key: string): Promise<SysVal> {
  return (await callRoute('postAdminSysVals', { body, headers: actionKeyHeaders(key) })).data;
}

/** PUT /api/admin/sys_vals/{key}: the body is the value only (docs/product.md, Calls). */
export async function updateSysVal({ key, value }: { key: string; value: string }, actionKey: string): Promise<SysVal> {
  return (
    await callRoute('putAdminSysValsByKey', { params: { key }, body: { value }, headers: actionKeyHeaders(actionKey) })
  ).data;
}

/** DELETE /api/admin/sys_vals/{key} */
export async function deleteSysVal(key: string, actionKey: string): Promise<void> {
  await callRoute('deleteAdminSysValsByKey', { params: { key }, headers: actionKeyHeaders(actionKey) });
}

/** Every change reloads the list (docs/product.md, States); `actionKey` is the opened form's Idempotency-Key. */
function useSysValMutation<A, R>(call: (args: A, actionKey: string) => Promise<R>, actionKey: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: A) => call(args, actionKey),
    ...keyedActionRetry,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sysValsKey }),
  });
}

export const useCreateSysVal = (actionKey: string) => useSysValMutation(createSysVal, actionKey);
export const useUpdateSysVal = (actionKey: string) => useSysValMutation(updateSysVal, actionKey);
export const useDeleteSysVal = (actionKey: string) => useSysValMutation(deleteSysVal, actionKey);
