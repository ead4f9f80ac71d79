import type { ServerResponse } from 'node:http';
import type { File as TelegramFile } from 'grammy/types';
import { safeFileName } from '@gpt/kit';
import { randomId } from './ids';
import { answer, BotApiError, badRequest, isUpload, type Handler, type Params } from './params';
import type { StoredFile, StoredFileInfo } from './types';

/** A file as getFile answers it and as the sandbox hands it out. */
export const fileInfo = ({ file_id, file_unique_id, file_size, file_path }: StoredFile): StoredFileInfo => ({
  file_id,
  file_unique_id,
  file_size,
  file_path,
});

/** The fields every file of a message (photo, document, voice, audio) carries. */
export const fileOfMessage = ({ file_id, file_unique_id, file_size }: StoredFile) => ({
  file_id,
  file_unique_id,
  file_size,
});

export type SandboxFiles = ReturnType<typeof createFiles>;

/**
 * The files sent in the sandbox's chats, served by getFile and downloaded at
 * `/file/bot<token>/<file_path>`; past `maxFileBytes` in all, the oldest are dropped.
 */
export function createFiles(maxFileBytes: number) {
  const files = new Map<string, StoredFile>();
  let nextFileNumber = 1;
  let fileBytes = 0;

  function drop(file: StoredFile): void {
    if (files.delete(file.file_id)) fileBytes -= file.bytes.length;
  }

  function store(
    bytes: Buffer,
    mime: string,
    folder: string,
    options: { name?: string | undefined; chatId?: number } = {},
  ): StoredFile {
    const number = nextFileNumber++;
    const name = options.name === undefined ? undefined : safeFileName(options.name) || undefined;
    const extension = (name?.includes('.') ? name.split('.').pop() : mime.split('/')[1])?.replace(/[^\w]/g, '');
    const file: StoredFile = {
      file_id: `BQACAgIAAxk${randomId(24)}`,
      file_unique_id: `AgAD${randomId(6)}`,
      file_size: bytes.length,
      file_path: `${folder}/file_${number}.${extension || 'bin'}`,
      bytes,
      mime,
      name,
      chatId: options.chatId,
    };
    files.set(file.file_id, file);
    fileBytes += bytes.length;
    // Maps keep insertion order: the first files are the oldest.
    for (const oldest of files.values()) {
      if (fileBytes <= maxFileBytes || oldest === file) break;
      drop(oldest);
    }
    return file;
  }

  const handlers: Record<string, Handler> = {
    getFile: (params) => {
      const file = files.get(params.string('file_id') ?? '');
      if (!file) throw badRequest('invalid file_id');
      return fileInfo(file) satisfies TelegramFile;
    },
  };

  return {
    handlers,
    store,
    get: (fileId: string) => files.get(fileId),

    /** A file parameter of a method: an upload, a known file_id, or an HTTP URL (kept, never fetched). */
    input(params: Params, field: string, folder: string, chatId: number): StoredFile {
      const value = params.values[field];
      if (isUpload(value)) return store(value.bytes, value.type, folder, { name: value.name, chatId });
      if (typeof value === 'string' && files.has(value)) return files.get(value)!;
      if (typeof value === 'string' && /^https?:\/\//.test(value))
        return store(Buffer.alloc(0), 'application/octet-stream', folder, { name: value.split('/').pop(), chatId });
      throw badRequest('wrong file identifier/HTTP URL specified');
    },

    /** Answers a download of `filePath` (as the URL spells it): the bytes, or Telegram's 404 to a wrong token. */
    download(res: ServerResponse, tokenRight: boolean, filePath: string): void {
      const file = [...files.values()].find((f) => f.file_path === decodeURIComponent(filePath));
      if (!tokenRight || !file) {
        answer(res, new BotApiError(404, 'Not Found'));
        return;
      }
      res.writeHead(200, { 'Content-Type': file.mime, 'Content-Length': file.bytes.length }).end(file.bytes);
    },

    /** Drops the files sent in a chat. */
    forgetChat(chatId: number): void {
      for (const file of [...files.values()]) if (file.chatId === chatId) drop(file);
    },
  };
}
