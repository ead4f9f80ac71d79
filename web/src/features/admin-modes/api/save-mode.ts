import { type ChatMode, type ChatModeInput, type RequestBody } from '@gpt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

import { adminModesKey } from './get-admin-modes';

/** The body of POST /api/admin/modes and PUT /api/admin/modes/{id}. */
export type ModeBody = RequestBody<typeof ChatModeInput>;

/** Creates (no id) or replaces (id) a mode; answers the stored mode. */
export async function saveMode({ id, ...body }: ModeBody & { id?: number }): Promise<ChatMode> {
  const { mode } =
    id === undefined
      ? await callRoute('postAdminModes', { body })
      : await callRoute('putAdminModesById', { params: { id }, body });
  return mode;
}

/** After a save the list reloads (another mode may have stopped being the default). */
export function useSaveMode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveMode,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminModesKey }),
  });
}
