import type { Chat } from '../data/chats.repository';
import { placeHold, recordFailure, recordWithRetries, type AskDeps, type Insufficient } from './ask';
import { creditsFor, type Catalog } from './catalog';
import { estimateTokens } from './conversation';

export type DrawOutcome =
  | { kind: 'drawn'; png: Buffer }
  | { kind: 'not_in_tariff' }
  | { kind: 'unavailable' }
  | Insufficient
  | { kind: 'failed' };

/**
 * `/image <описание>`: only on a tariff with image generation. Holds the price of one image,
 * draws it, records it (the picture goes with the message, so the admin history shows it) with
 * the hold's id, which charges it; a failure costs nothing.
 */
export async function draw(
  deps: AskDeps,
  input: { chat: Chat; catalog: Catalog; prompt: string },
  onStart: () => Promise<void>,
): Promise<DrawOutcome> {
  const { chat, catalog, prompt } = input;
  const model = catalog.models.get(catalog.settings.imageModel);
  if (!model?.image_price) return { kind: 'unavailable' };
  const balance = await deps.services.balance(chat.telegramId);
  if (!balance.can_generate_images) return { kind: 'not_in_tariff' };

  const promptTokens = estimateTokens(prompt);
  const ceiling = creditsFor(catalog, model, { inputTokens: promptTokens, outputTokens: 0, images: 1 });
  const hold = await placeHold(deps, { telegramId: chat.telegramId }, ceiling);
  if (hold.kind === 'insufficient') return hold;
  const { holdId } = hold;

  const base = { telegram_id: chat.telegramId, model: model.model, user_message: `/image ${prompt}`, hold_id: holdId };
  try {
    await onStart();
    const image = await deps.provider.generateImage({ model: model.model, prompt });
    await recordWithRetries(deps, () =>
      deps.services.recordMessage(
        {
          ...base,
          status: 'success',
          bot_response: 'Изображение создано',
          input_tokens: image.inputTokens,
          output_tokens: 0,
          image_count: 1,
          error_message: null,
        },
        { bytes: image.png, mimeType: 'image/png' },
      ),
    );
    return { kind: 'drawn', png: image.png };
  } catch (err) {
    deps.logger.warn({ err, model: model.model }, 'image generation failed');
    await recordFailure(deps, { ...base, bot_response: null, image_count: 0 }, err);
    return { kind: 'failed' };
  }
}
