import { BOT_MESSAGE_IMAGE_MAX_BYTES } from '@gpt/contracts';
import type { ImageRules } from '@gpt/kit';
import { chatHistoryErrors } from './errors';

/** An image attached to a message: a JPEG, PNG or WebP of at most 10 MB, judged by its content. */
export const MESSAGE_IMAGE_RULES: ImageRules = {
  types: ['image/jpeg', 'image/png', 'image/webp'],
  maxBytes: BOT_MESSAGE_IMAGE_MAX_BYTES,
  tooLarge: chatHistoryErrors.imageTooLarge,
};
