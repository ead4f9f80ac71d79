import type { TelegramLink } from '../deps';
import type { BotContext } from './context';

const DOWNLOAD_TIMEOUT_MS = 60_000;

/** The bytes of a file the user sent, from Telegram's file storage. */
export async function downloadFile(
  telegram: Pick<TelegramLink, 'apiUrl'>,
  ctx: BotContext,
  fileId: string,
): Promise<Buffer> {
  const file = await ctx.api.getFile(fileId);
  const response = await fetch(`${telegram.apiUrl()}/file/bot${ctx.api.token}/${file.file_path}`, {
    signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`file download failed: ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}
