import busboy from 'busboy';
import type { Request, Response } from 'express';
import { AppError, badRequest, payloadTooLarge } from '../errors';

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif';

export interface UploadedImage {
  contentType: ImageType;
  data: Buffer;
}

/** A stored image as a service keeps it in its database. */
export interface StoredImage {
  contentType: string;
  data: Uint8Array;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** What the file is by its first bytes; the name and the declared type are the sender's word only. */
export function detectImageType(data: Buffer): ImageType | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') {
    return 'image/webp';
  }
  if (data.length >= 6 && /^GIF8[79]a$/.test(data.toString('latin1', 0, 6))) return 'image/gif';
  return undefined;
}

const FORMAT_NAMES: Record<ImageType, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'image/gif': 'GIF',
};

/** «JPEG, PNG или WebP» */
function formatList(types: readonly ImageType[]): string {
  const names = types.map((type) => FORMAT_NAMES[type]);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} или ${names.at(-1)}`;
}

/** The rules of one kind of upload: which image types and how many bytes. */
export interface ImageRules {
  types: readonly ImageType[];
  maxBytes: number;
  /** The 413 answer, e.g. «Изображение должно быть не больше 10 МБ». */
  tooLarge: () => AppError;
}

/** Accepts an image of one of the rules' types and at most their size, judged by its content. */
export function acceptImage(data: Buffer, rules: ImageRules): UploadedImage {
  if (data.length > rules.maxBytes) throw rules.tooLarge();
  const contentType = detectImageType(data);
  if (!contentType || !rules.types.includes(contentType)) {
    throw new AppError(`Изображение должно быть в формате ${formatList(rules.types)}`, 'unsupported_image_type', 415);
  }
  return { contentType, data };
}

/**
 * Answers with a stored image, served as an image only (no sniffing, no scripts). Its id never
 * points at other bytes, so it is cached for a year; `scope` says whether shared caches may keep it.
 */
export function sendImage(res: Response, image: StoredImage, scope: 'public' | 'private'): void {
  res
    .status(200)
    .type(image.contentType)
    .set({
      'Cache-Control': `${scope}, max-age=31536000, immutable`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'",
      'Content-Disposition': 'inline',
    })
    .send(Buffer.from(image.data));
}

export interface MultipartBody {
  fields: Record<string, string>;
  /** The image part, checked by `rules`; absent when none or an empty one was sent. */
  image?: UploadedImage;
}

/** The texts of a multipart body are at most a few hundred kilobytes. */
const MAX_FIELD_BYTES = 1024 * 1024;
const MAX_FIELDS = 20;

/**
 * Reads a multipart/form-data body with text fields and at most one file in the field `image`,
 * stopping as soon as the file passes the size limit.
 */
export function readImageMultipart(req: Request, rules: ImageRules): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, fileSize: rules.maxBytes + 1 },
      });
    } catch {
      reject(badRequest('Некорректное тело multipart/form-data', 'invalid_multipart'));
      return;
    }
    const fields: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let hasImage = false;
    let failure: AppError | undefined;
    const fail = (err: AppError) => {
      failure ??= err;
      // Stop reading: whatever is left of the body is not worth receiving.
      req.unpipe(parser);
      req.resume();
      reject(failure);
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(payloadTooLarge(`Поле ${name} слишком большое`));
      else fields[name] = value;
    });
    parser.on('file', (name, stream) => {
      if (name !== 'image') {
        stream.resume();
        fail(badRequest(`Неизвестное файловое поле ${name}: ожидается image`, 'unexpected_file'));
        return;
      }
      hasImage = true;
      // Read one byte past the limit: busboy stops there and the size check says "too large".
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(rules.tooLarge()));
    });
    parser.on('filesLimit', () => fail(badRequest('Можно приложить только одно изображение', 'too_many_files')));
    parser.on('fieldsLimit', () => fail(badRequest('Слишком много полей', 'too_many_fields')));
    parser.on('error', () => fail(badRequest('Некорректное тело multipart/form-data', 'invalid_multipart')));
    parser.on('close', () => {
      if (failure) return;
      try {
        const data = Buffer.concat(chunks);
        // A form with no file chosen still sends an empty part.
        const image = hasImage && data.length > 0 ? acceptImage(data, rules) : undefined;
        resolve(image ? { fields, image } : { fields });
      } catch (err) {
        reject(err as Error);
      }
    });
    req.pipe(parser);
  });
}
