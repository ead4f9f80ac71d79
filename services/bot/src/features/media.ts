import { safeFileName } from '@gpt/kit';
import { Composer } from 'grammy';
import type { BotDeps } from '../deps';
import { documentPrompt } from '../domain/document-prompt';
import { DocumentRefusal } from '../documents/refusals';
import { reply, type PrivateContext } from '../telegram/context';
import { downloadFile } from '../telegram/download';
import { answerWithModel } from '../telegram/model-answer';
import { texts } from '../telegram/texts';

/** Photos (answered by the vision model) and documents (their text goes to the model with the caption's question). */
export function mediaFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();
  const { config } = deps;

  feature.on('message:photo', async (ctx) => {
    const largest = ctx.message.photo.at(-1)!;
    const bytes = await downloadFile(deps.telegram, ctx, largest.file_id);
    const question = ctx.message.caption?.trim() || texts.photoDefaultQuestion;
    const catalog = await deps.catalog.get();
    await answerWithModel(deps, ctx, {
      userMessage: question,
      content: [
        { type: 'text', text: question },
        { type: 'image', dataUrl: `data:image/jpeg;base64,${bytes.toString('base64')}` },
      ],
      image: { bytes, mimeType: 'image/jpeg' },
      model: catalog.settings.visionModel,
    });
  });

  feature.on('message:document', async (ctx) => {
    const document = ctx.message.document;
    if ((document.file_size ?? 0) > config.BOT_MAX_DOCUMENT_BYTES) {
      return void (await reply(ctx, texts.documentTooLarge(Math.floor(config.BOT_MAX_DOCUMENT_BYTES / 1024 / 1024))));
    }
    // A name with a line break would forge lines of the prompt and of the stored history.
    const name = safeFileName(document.file_name ?? '') || 'document';
    let extracted;
    try {
      extracted = await deps.documents.read(
        ctx.account.telegramId,
        () => downloadFile(deps.telegram, ctx, document.file_id),
        {
          fileName: name,
          mimeType: document.mime_type ?? '',
        },
      );
    } catch (err) {
      if (err instanceof DocumentRefusal) {
        return void (await reply(ctx, err.message));
      }
      throw err;
    }
    if (extracted.truncated) await reply(ctx, texts.documentTruncated(extracted.text.length).trim());
    const question = ctx.message.caption?.trim() || texts.documentDefaultQuestion;
    await answerWithModel(deps, ctx, documentPrompt(name, question, extracted.text));
  });
  return feature;
}
