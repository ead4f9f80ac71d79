import { BOT_MESSAGE_IMAGE_MAX_BYTES } from '@gpt/contracts';
import { AppError, badRequest, payloadTooLarge } from '@gpt/kit';
import busboy from 'busboy';
import type { Request } from 'express';
import { acceptImage, imageTooLarge, type UploadedImage } from '../domain/image';

export interface BotMessageBody {
  fields: unknown;
  image?: UploadedImage;
}

/** The texts of a multipart message are at most a few hundred kilobytes. */
const MAX_FIELD_BYTES = 1024 * 1024;
const MAX_FIELDS = 20;

/** JSON (already parsed by the app) or multipart/form-data with an optional `image` file. */
export async function readBotMessageBody(req: Request): Promise<BotMessageBody> {
  if (req.is('multipart/form-data')) return readMultipart(req);
  if (req.is('application/json')) return { fields: req.body as unknown };
  throw new AppError('unsupported_media_type', 415, 'Ожидается JSON или multipart/form-data');
}

function readMultipart(req: Request): Promise<BotMessageBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, fileSize: BOT_MESSAGE_IMAGE_MAX_BYTES + 1 },
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
      stream.on('limit', () => fail(imageTooLarge()));
    });
    parser.on('filesLimit', () => fail(badRequest('Можно приложить только одно изображение', 'too_many_files')));
    parser.on('fieldsLimit', () => fail(badRequest('Слишком много полей', 'too_many_fields')));
    parser.on('error', () => fail(badRequest('Некорректное тело multipart/form-data', 'invalid_multipart')));
    parser.on('close', () => {
      if (failure) return;
      try {
        const data = Buffer.concat(chunks);
        // A form with no file chosen still sends an empty part.
        const image = hasImage && data.length > 0 ? acceptImage(data) : undefined;
        resolve(image ? { fields, image } : { fields });
      } catch (err) {
        reject(err as Error);
      }
    });
    req.pipe(parser);
  });
}
