import { BOT_MESSAGE_IMAGE_MAX_BYTES } from '@gpt/contracts';
import { AppError, payloadTooLarge } from '@gpt/kit';

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

export interface UploadedImage {
  contentType: ImageType;
  data: Buffer;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** What the file is by its first bytes; the name and the declared type are the sender's word only. */
export function detectImageType(data: Buffer): ImageType | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') {
    return 'image/webp';
  }
  return undefined;
}

export const imageTooLarge = () => payloadTooLarge('Изображение должно быть не больше 10 МБ');

/** Accepts a JPEG, PNG or WebP of at most 10 MB, judged by its content. */
export function acceptImage(data: Buffer): UploadedImage {
  if (data.length > BOT_MESSAGE_IMAGE_MAX_BYTES) throw imageTooLarge();
  const contentType = detectImageType(data);
  if (!contentType) {
    throw new AppError('unsupported_image_type', 415, 'Изображение должно быть в формате JPEG, PNG или WebP');
  }
  return { contentType, data };
}
