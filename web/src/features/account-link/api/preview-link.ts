import { LinkPreviewResponse } from '@gpt/contracts';
import { useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** POST /api/auth/link/preview { token } (bearer): whose Telegram account the link token would bind; the token stays unused. */
export function previewLink(token: string): Promise<LinkPreviewResponse> {
  return callRoute('postAuthLinkPreview', { body: { token } });
}

export function useLinkPreview(token: string, enabled: boolean) {
  return useQuery({
    queryKey: ['link-preview', token],
    queryFn: () => previewLink(token),
    enabled: enabled && token !== '',
    retry: false,
    staleTime: Infinity,
  });
}
