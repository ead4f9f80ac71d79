import { SandboxSent, type SandboxUploadRequest } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** POST /api/telegram/sandbox/chat/uploads: a photo or a document, base64 in JSON. */
export function uploadSandboxFile(request: SandboxUploadRequest): Promise<SandboxSent> {
  return callRoute('postTelegramSandboxChatUploads', { body: request });
}

export function useUploadSandboxFile() {
  return useMutation({ mutationFn: uploadSandboxFile });
}
