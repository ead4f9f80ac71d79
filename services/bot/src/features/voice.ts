import { Composer } from 'grammy';
import type { BotDeps } from '../deps';
import { reply, type PrivateContext } from '../telegram/context';
import { downloadFile } from '../telegram/download';
import { audioSeconds } from '../domain/voice';
import { answerWithModel } from '../telegram/model-answer';
import { texts } from '../telegram/texts';

/**
 * Voice messages and audio files: transcribed (the user sees what was heard) and answered like a
 * text in the same conversation. The length that counts is the file's own (`audioSeconds`): a file
 * whose length cannot be read, or that is too long, is refused before anything is spent; a claim
 * already too long is refused before the download.
 */
export function voiceFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();
  const { config } = deps;

  feature.on(['message:voice', 'message:audio'], async (ctx) => {
    const sound = ctx.message.voice ?? ctx.message.audio!;
    if (sound.duration > config.BOT_MAX_VOICE_SECONDS) {
      return void (await reply(ctx, texts.voiceTooLong(config.BOT_MAX_VOICE_SECONDS)));
    }
    const catalog = await deps.catalog.get();
    if (!catalog.models.has(catalog.settings.transcriptionModel))
      return void (await reply(ctx, texts.voiceUnavailable));
    const audio = await downloadFile(deps.telegram, ctx, sound.file_id);
    const seconds = await audioSeconds(audio);
    if (seconds === null) return void (await reply(ctx, texts.voiceUnreadable));
    if (seconds > config.BOT_MAX_VOICE_SECONDS) {
      return void (await reply(ctx, texts.voiceTooLong(config.BOT_MAX_VOICE_SECONDS)));
    }
    const mimeType = sound.mime_type ?? 'audio/ogg';
    const fileName = ctx.message.audio?.file_name ?? `voice.${mimeType.split('/')[1] ?? 'ogg'}`;
    await answerWithModel(deps, ctx, {
      userMessage: '',
      content: '',
      voice: { audio, fileName, mimeType, seconds },
    });
  });
  return feature;
}
