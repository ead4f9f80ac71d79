import { SuccessResponse, type SysVal, SysValResponse } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { sysValsKey } from './get-sys-vals';

/** POST /api/admin/sys_vals with key and value. */
export async function createSysVal(body: { key: string; value: string }): Promise<SysVal> {
  return (await api.post(apiPath('postAdminSysVals'), SysValResponse, body)).data;
}

/** PUT /api/admin/sys_vals/{key}: the body is the value only (docs/product.md, Calls). */
export async function updateSysVal({ key, value }: { key: string; value: string }): Promise<SysVal> {
  return (await api.put(apiPath('putAdminSysValsByKey', { key }), SysValResponse, { value })).data;
}

/** DELETE /api/admin/sys_vals/{key} */
export async function deleteSysVal(key: string): Promise<void> {
  await api.delete(apiPath('deleteAdminSysValsByKey', { key }), SuccessResponse);
}

/** Every change reloads the list (docs/product.md, States). */
function useSysValMutation<A, R>(mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sysValsKey }),
  });
}

export const useCreateSysVal = () => useSysValMutation(createSysVal);
export const useUpdateSysVal = () => useSysValMutation(updateSysVal);
export const useDeleteSysVal = () => useSysValMutation(deleteSysVal);
