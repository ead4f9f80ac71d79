import { extractDocumentText, type ExtractedDocument, type ExtractOptions } from './extract';
import { DocumentLimitError } from './refusals';

export type DocumentLimits = Required<
  Pick<ExtractOptions, 'maxChars' | 'maxUnpackedBytes' | 'maxEntries' | 'maxPages'>
>;

/**
 * Reads users' documents within `limits`, one at a time per user: a second document while the first
 * is still being read is refused (a message names the rule), so nobody multiplies the work.
 */
export function documentReader(limits: DocumentLimits) {
  const reading = new Set<number>();
  return {
    async read(
      telegramId: number,
      download: () => Promise<Buffer>,
      file: Pick<ExtractOptions, 'fileName' | 'mimeType'>,
    ): Promise<ExtractedDocument> {
      if (reading.has(telegramId))
        throw new DocumentLimitError(
          'Я ещё читаю ваш предыдущий документ: документы читаются по одному. Пришлите этот чуть позже.',
        );
      reading.add(telegramId);
      try {
        return await extractDocumentText(await download(), { ...file, ...limits });
      } finally {
        reading.delete(telegramId);
      }
    },
  };
}
export type DocumentReader = ReturnType<typeof documentReader>;
