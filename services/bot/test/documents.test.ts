import { describe, expect, test } from '@jest/globals';
import JSZip from 'jszip';
import { extractDocumentText, UnreadableDocumentError, UnsupportedDocumentError } from '../src/documents/extract';

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

/** A DOCX (Office Open XML) with one paragraph per string, zipped as Word would. */
async function minimalDocx(paragraphs: string[]): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '</Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
      '</Relationships>',
  );
  const body = paragraphs.map((text) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`).join('');
  zip.file(
    'word/document.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
      `<w:body>${body}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
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
    const bytes = await minimalDocx(['Договор оказания услуг', 'Стороны договорились о следующем.']);
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
