import zlib, { crc32 } from 'node:zlib';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { extractDocumentText } from '../src/documents/extract';
import { documentReader } from '../src/documents/reader';
import { DocumentLimitError, UnreadableDocumentError, UnsupportedDocumentError } from '../src/documents/refusals';

/** A one-page PDF 1.4 with one line of Helvetica text, its cross-reference table computed from the bytes. */
function minimalPdf(line: string): Buffer {
  const stream = `BT /F1 18 Tf 72 720 Td (${line}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const offset = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

const stored = (name: string, text: string) => {
  const data = Buffer.from(text);
  return { name, data, size: data.length, crc: crc32(data), deflated: false };
};

/** A DOCX (Office Open XML) with one paragraph per string. */
function minimalDocx(paragraphs: string[]): Buffer {
  const body = paragraphs.map((text) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`).join('');
  return zipOf([
    stored(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        '</Types>',
    ),
    stored(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
        '</Relationships>',
    ),
    stored(
      'word/document.xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
        `<w:body>${body}</w:body></w:document>`,
    ),
  ]);
}

/** The first bytes of a real PNG (signature and IHDR chunk of a 1×1 image). */
const pngBytes = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

const docxMime = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('extractDocumentText', () => {
  test('when a PDF has a line of text, then that text is read', async () => {
    const result = await extractDocumentText(minimalPdf('Quarterly report: revenue grew'), {
      fileName: 'report.pdf',
      mimeType: 'application/pdf',
      maxChars: 10_000,
    });
    expect(result).toEqual({ text: 'Quarterly report: revenue grew', truncated: false, kind: 'pdf' });
  });

  test('when a DOCX has Russian paragraphs, then they are read line by line', async () => {
    const bytes = minimalDocx(['Договор оказания услуг', 'Стороны договорились о следующем.']);
    const result = await extractDocumentText(bytes, { fileName: 'Договор.DOCX', mimeType: docxMime, maxChars: 10_000 });
    expect(result.kind).toBe('docx');
    expect(result.text).toBe('Договор оказания услуг\n\nСтороны договорились о следующем.');
  });

  test('when a .txt starts with a UTF-8 BOM and has CRLF line ends, then the text has neither', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Привет\r\nмир\r\n', 'utf8')]);
    const result = await extractDocumentText(bytes, { fileName: 'note.txt', maxChars: 100 });
    expect(result).toEqual({ text: 'Привет\nмир', truncated: false, kind: 'txt' });
  });

  test('when a text file is in Windows-1251, then the Russian text is still read', async () => {
    // «Привет» in Windows-1251, which is not valid UTF-8.
    const bytes = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]);
    const result = await extractDocumentText(bytes, { fileName: 'old.txt', maxChars: 100 });
    expect(result.text).toBe('Привет');
  });

  test('when a file has no name but a markdown MIME type, then it is read as markdown', async () => {
    const result = await extractDocumentText(Buffer.from('# Title\n\n- item'), {
      mimeType: 'text/markdown; charset=utf-8',
      maxChars: 100,
    });
    expect(result).toEqual({ text: '# Title\n\n- item', truncated: false, kind: 'md' });
  });

  test('when the text is longer than maxChars, then it is cut at a whitespace boundary and marked truncated', async () => {
    const words = Array.from({ length: 50 }, (_, i) => `слово${i}`).join(' ');
    const result = await extractDocumentText(Buffer.from(words), { fileName: 'long.md', maxChars: 40 });
    expect(result.truncated).toBe(true);
    expect(result.text.length).toBeLessThanOrEqual(40);
    expect(words.startsWith(result.text)).toBe(true);
    expect(words[result.text.length]).toBe(' ');
  });

  test('when one word is longer than maxChars, then it is cut at exactly maxChars', async () => {
    const result = await extractDocumentText(Buffer.from('a'.repeat(500)), { fileName: 'a.txt', maxChars: 100 });
    expect(result).toEqual({ text: 'a'.repeat(100), truncated: true, kind: 'txt' });
  });

  test('when a PNG is renamed .txt, then it is refused as not text', async () => {
    const error = await extractDocumentText(pngBytes, { fileName: 'photo.txt', maxChars: 100 }).catch((e) => e);
    expect(error).toBeInstanceOf(UnreadableDocumentError);
    expect(error).toMatchObject({ reason: 'binary', message: expect.stringMatching(/^Файл не похож на текстовый/) });
  });

  test.each([
    ['an image', { fileName: 'photo.png', mimeType: 'image/png' }],
    ['a spreadsheet', { fileName: 'table.xlsx', mimeType: 'application/octet-stream' }],
    ['a nameless file of unknown type', { mimeType: 'application/zip' }],
  ])('when the file is %s, then it is refused with the Russian list of supported types', async (_, options) => {
    const error = await extractDocumentText(pngBytes, { ...options, maxChars: 100 }).catch((e) => e);
    expect(error).toBeInstanceOf(UnsupportedDocumentError);
    expect(error.message).toBe('Этот тип файла не поддерживается. Пришлите .txt, .md, .pdf или .docx.');
  });

  test('when a PDF is corrupt, then it is refused as unreadable', async () => {
    const corrupt = minimalPdf('lost').subarray(0, 60);
    const error = await extractDocumentText(corrupt, { fileName: 'broken.pdf', maxChars: 100 }).catch((e) => e);
    expect(error).toBeInstanceOf(UnreadableDocumentError);
    expect(error).toMatchObject({ reason: 'corrupt', message: expect.stringMatching(/^Не удалось прочитать файл/) });
  });

  test('when a .docx is not a zip at all, then it is refused as unreadable', async () => {
    const error = await extractDocumentText(Buffer.from('just text'), { fileName: 'fake.docx', maxChars: 100 }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({ reason: 'corrupt' });
  });

  test('when a PDF has no text (a scan), then it is refused as empty', async () => {
    const error = await extractDocumentText(minimalPdf(''), { fileName: 'scan.pdf', maxChars: 100 }).catch((e) => e);
    expect(error).toBeInstanceOf(UnreadableDocumentError);
    expect(error).toMatchObject({ reason: 'empty', message: expect.stringMatching(/^В файле не нашлось текста/) });
  });

  test('when a text file holds only whitespace, then it is refused as empty', async () => {
    const error = await extractDocumentText(Buffer.from(' \n\t\n'), { fileName: 'blank.txt', maxChars: 100 }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({ reason: 'empty' });
  });
});

/** A zip written by hand, so a test can give it any directory: entries stored or deflated as given. */
function zipOf(entries: { name: string; data: Buffer; size: number; crc: number; deflated: boolean }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const header = (signature: number, central: boolean) => {
      const fixed = Buffer.alloc(central ? 46 : 30);
      let at = 0;
      const u32 = (value: number) => (at = fixed.writeUInt32LE(value >>> 0, at));
      const u16 = (value: number) => (at = fixed.writeUInt16LE(value, at));
      u32(signature);
      if (central) u16(20);
      u16(20); // version needed
      u16(0); // flags
      u16(entry.deflated ? 8 : 0);
      u16(0); // time
      u16(0x21); // date
      u32(entry.crc);
      u32(entry.data.length);
      u32(entry.size);
      u16(name.length);
      u16(0); // extra
      if (central) {
        u16(0); // comment
        u16(0); // disk
        u16(0); // internal attributes
        u32(0); // external attributes
        u32(offset);
      }
      return Buffer.concat([fixed, name]);
    };
    const local = Buffer.concat([header(0x04034b50, false), entry.data]);
    centrals.push(header(0x02014b50, true));
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * A .docx bomb: `megabytes` MB of paragraphs in word/document.xml, deflated to a few hundred
 * kilobytes. `declaredSize` makes the zip directory lie about the unpacked size.
 */
function docxBomb(megabytes: number, declaredSize?: number): Buffer {
  const paragraph = `<w:p><w:r><w:t>${'бомба '.repeat(80)}</w:t></w:r></w:p>`;
  const xml = Buffer.from(
    `<?xml version="1.0"?><w:document xmlns:w="w"><w:body>${paragraph.repeat(Math.ceil((megabytes * 1024 * 1024) / Buffer.byteLength(paragraph)))}</w:body></w:document>`,
  );
  const document = {
    name: 'word/document.xml',
    data: zlib.deflateRawSync(xml, { level: 9 }),
    size: declaredSize ?? xml.length,
    crc: crc32(xml),
    deflated: true,
  };
  return zipOf([stored('[Content_Types].xml', '<Types/>'), stored('_rels/.rels', '<Relationships/>'), document]);
}

describe('documents within bounds', () => {
  const MB = 1024 * 1024;
  // What this thread holds: its heap and its buffers. Test files run side by side in one process's threads
  // (jest.config.js), so the process's RSS would count the others' memory too.
  const used = () => {
    const { heapUsed, external } = process.memoryUsage();
    return heapUsed + external;
  };
  let bomb: Buffer;
  beforeAll(() => {
    bomb = docxBomb(60);
  });

  test('a .docx bomb (60 MB of text in a small file) is refused from its zip directory, the limit named', async () => {
    expect(bomb.length).toBeLessThan(2 * MB);
    const error = await extractDocumentText(bomb, { fileName: 'bomb.docx', maxChars: 40_000 }).catch((e) => e);
    expect(error).toBeInstanceOf(DocumentLimitError);
    expect(error.message).toBe('Документ слишком большой в распакованном виде: больше 20 МБ. Пришлите файл поменьше.');
  });

  test('five bombs at once: the heap and buffers grow by less than 150 MB', async () => {
    const before = used();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, used())), 5);
    try {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 5 }, () => extractDocumentText(bomb, { fileName: 'bomb.docx', maxChars: 40_000 })),
      );
      peak = Math.max(peak, used());
      expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    } finally {
      clearInterval(sampler);
    }
    expect(peak - before).toBeLessThan(150 * MB);
  });

  test('a bomb whose directory lies about its unpacked size is stopped while unpacking', async () => {
    const liar = docxBomb(30, 1000);
    const before = used();
    const error = await extractDocumentText(liar, { fileName: 'liar.docx', maxChars: 40_000_000 }).catch((e) => e);
    expect(error).toBeInstanceOf(UnreadableDocumentError);
    expect(used() - before).toBeLessThan(150 * MB);
  });

  test('a .docx of more entries than allowed is refused before unpacking any, the limit named', async () => {
    const many = zipOf(Array.from({ length: 501 }, (_, i) => stored(`word/part${i}.xml`, '<x/>')));
    const error = await extractDocumentText(many, { fileName: 'many.docx', maxChars: 100 }).catch((e) => e);
    expect(error).toBeInstanceOf(DocumentLimitError);
    expect(error.message).toBe('В документе слишком много частей: больше 500. Такой файл я не читаю.');
  });

  test('a long .docx is read only up to maxChars, and marked cut', async () => {
    const long = docxBomb(5);
    const result = await extractDocumentText(long, { fileName: 'long.docx', maxChars: 1000 });
    expect(result).toMatchObject({ truncated: true, kind: 'docx' });
    expect(result.text.length).toBeLessThanOrEqual(1000);
    expect(result.text.startsWith('бомба бомба')).toBe(true);
  });

  test('one document at a time per user: a second while the first is read is refused, another user’s is read', async () => {
    const reader = documentReader({ maxChars: 100, maxUnpackedBytes: 20 * MB, maxEntries: 500, maxPages: 10 });
    let release!: () => void;
    const slow = new Promise<Buffer>((resolve) => (release = () => resolve(Buffer.from('первый'))));
    const first = reader.read(1, () => slow, { fileName: 'a.txt' });
    const second = await reader.read(1, async () => Buffer.from('второй'), { fileName: 'b.txt' }).catch((e) => e);
    expect(second).toBeInstanceOf(DocumentLimitError);
    expect(second.message).toMatch(/документы читаются по одному/);
    await expect(reader.read(2, async () => Buffer.from('чужой'), { fileName: 'c.txt' })).resolves.toMatchObject({
      text: 'чужой',
    });
    release();
    await expect(first).resolves.toMatchObject({ text: 'первый' });
    await expect(reader.read(1, async () => Buffer.from('третий'), { fileName: 'd.txt' })).resolves.toMatchObject({
      text: 'третий',
    });
  });
});
