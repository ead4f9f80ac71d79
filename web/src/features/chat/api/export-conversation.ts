import { apiPath } from '@gpt/contracts/routes';

import { downloadFile } from '@/lib/download-file';

/** GET /api/chat/conversations/{id}/export: the browser saves the Markdown under the server's file name. */
export const downloadConversation = (id: string) =>
  downloadFile(apiPath('getChatConversationsByIdExport', { id }), {}, `chat-${id}.md`);
