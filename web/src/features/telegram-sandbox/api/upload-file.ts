import { SandboxSent, type SandboxUploadRequest } from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/routes';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** POST /api/telegram/sandbox/chat/uploads: a photo or a document, base64 in JSON. */
export function uploadSandboxFile(request: SandboxUploadRequest): Promise<SandboxSent> {
  return api.post(apiPath('postTelegramSandboxChatUploads'), SandboxSent, request);
}

export function useUploadSandboxFile() {
  return useMutation({ mutationFn: uploadSandboxFile });
}
