import { readImageMultipart, type UploadedImage } from '@gpt/kit';
import type { Request } from 'express';
import { MESSAGE_IMAGE_RULES } from '../domain/image';
import { chatHistoryErrors } from '../domain/errors';

export interface BotMessageBody {
  fields: unknown;
  image?: UploadedImage;
}

/** JSON (already parsed by the app) or multipart/form-data with an optional `image` file. */
export async function readBotMessageBody(req: Request): Promise<BotMessageBody> {
  if (req.is('multipart/form-data')) return readImageMultipart(req, MESSAGE_IMAGE_RULES);
  if (req.is('application/json')) return { fields: req.body as unknown };
  throw chatHistoryErrors.unsupportedBody();
}
