import { SaxesParser } from 'saxes';
import yauzl from 'yauzl';
import { DocumentLimitError, UnreadableDocumentError } from './refusals';

/** Bounds on what a .docx may hold, checked against its zip directory before anything is unpacked. */
export interface DocxLimits {
  maxUnpackedBytes: number;
  maxEntries: number;
  /** Text past this many characters is not read (the caller cuts it with a note). */
  maxChars: number;
}

const DOCUMENT_PART = 'word/document.xml';
const MB = 1024 * 1024;

const openZip = (bytes: Buffer) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    // Entry sizes are checked while unpacking too: a directory that lies about them fails the read.
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true }, (err, zip) =>
      err ? reject(err) : resolve(zip),
    ),
  );

/** Every entry of the zip's central directory, read without unpacking any. */
function directoryOf(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', reject);
    zip.readEntry();
  });
}

const openEntry = (zip: yauzl.ZipFile, entry: yauzl.Entry) =>
  new Promise<NodeJS.ReadableStream & { destroy(): void }>((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream))),
  );

/**
 * The text of a .docx, paragraph by paragraph, as Word shows it. The zip's directory is read first:
 * too many entries or too much unpacked data is refused before anything is unpacked; the document part
 * is then streamed through an XML parser and reading stops once `maxChars` are collected.
 */
export async function docxText(bytes: Buffer, limits: DocxLimits): Promise<string> {
  let zip: yauzl.ZipFile;
  let entries: yauzl.Entry[];
  try {
    zip = await openZip(bytes);
    if (zip.entryCount > limits.maxEntries) throw tooManyEntries(limits.maxEntries);
    entries = await directoryOf(zip);
  } catch (err) {
    if (err instanceof DocumentLimitError) throw err;
    throw new UnreadableDocumentError('corrupt', { cause: err });
  }
  try {
    const unpacked = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
    if (unpacked > limits.maxUnpackedBytes) throw tooLargeUnpacked(limits.maxUnpackedBytes);
    const part = entries.find((entry) => entry.fileName === DOCUMENT_PART);
    if (!part) throw new UnreadableDocumentError('corrupt');
    return await paragraphsOf(await openEntry(zip, part), limits.maxChars);
  } catch (err) {
    if (err instanceof DocumentLimitError || err instanceof UnreadableDocumentError) throw err;
    throw new UnreadableDocumentError('corrupt', { cause: err });
  } finally {
    zip.close();
  }
}

const tooManyEntries = (max: number) =>
  new DocumentLimitError(`В документе слишком много частей: больше ${max}. Такой файл я не читаю.`);
const tooLargeUnpacked = (maxBytes: number) =>
  new DocumentLimitError(
    `Документ слишком большой в распакованном виде: больше ${Math.floor(maxBytes / MB)} МБ. Пришлите файл поменьше.`,
  );

/** WordprocessingML's text: runs' `w:t`, tabs, breaks, a blank line after each paragraph. */
function paragraphsOf(stream: NodeJS.ReadableStream & { destroy(): void }, maxChars: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const parser = new SaxesParser();
    const decoder = new TextDecoder('utf-8');
    let text = '';
    let inText = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      stream.destroy();
      resolve(text);
    };
    parser.on('opentag', (tag) => {
      if (tag.name === 'w:t') inText = !tag.isSelfClosing;
      else if (tag.name === 'w:tab') text += '\t';
      else if (tag.name === 'w:br' || tag.name === 'w:cr') text += '\n';
    });
    parser.on('closetag', (tag) => {
      if (tag.name === 'w:t') inText = false;
      else if (tag.name === 'w:p') text += '\n\n';
    });
    parser.on('text', (value) => {
      if (inText) text += value;
    });
    stream.on('data', (chunk: Buffer) => {
      if (done) return;
      try {
        parser.write(decoder.decode(chunk, { stream: true }));
      } catch (err) {
        done = true;
        stream.destroy();
        reject(err as Error);
        return;
      }
      if (text.length > maxChars) finish();
    });
    stream.once('end', () => {
      if (done) return;
      try {
        parser.close();
        finish();
      } catch (err) {
        done = true;
        reject(err as Error);
      }
    });
    stream.once('error', (err) => {
      if (done) return;
      done = true;
      reject(err);
    });
  });
}
