import { parseBuffer } from 'music-metadata';
import { oggOpusDuration } from '../engine/ogg-opus';
import { wavDuration } from '../engine/wav';

/**
 * The voice parts of a call: how much a voice message may say (for its hold), and what of an answer
 * is read aloud.
 */

/** Characters the speech API reads at most in one call. */
export const SPEECH_MAX_CHARS = 4096;

/** A fast speaker says about this many characters a second: the transcript's size the hold allows for. */
export const TRANSCRIPT_CHARS_PER_SECOND = 25;

/** Opus never spends more than 510 kbit/s: no honest file holds more bytes a second than this. */
const OPUS_MAX_BYTES_PER_SECOND = 510_000 / 8;
/** MP3 tops out at 320 kbit/s and AAC voice far below 512: no honest .mp3 or .m4a holds more bytes a second. */
const COMPRESSED_MAX_BYTES_PER_SECOND = 512_000 / 8;
/** The containers whose length music-metadata reads for us: MP3 (MPEG audio) and M4A (MPEG-4 audio). */
const READ_CONTAINERS = /^(MPEG|M4A|mp4|isom|mp42)\b/i;

/**
 * How long a voice message or audio file is, read from the file itself and never from what the client
 * claims, in whole seconds (a started second counts): Ogg/Opus (Telegram's voice messages) by its last
 * granule, and at least what its size takes at Opus's highest bitrate, so a file whose pages claim less
 * than it holds pays for its bytes; WAV by the bytes of its data at its byte rate; MP3 and M4A as
 * music-metadata reads them (MP3's frames, or its Xing/VBRI frame count; M4A's audio track header),
 * and at least their size at 512 kbit/s, since those headers are claims too. Null when the length
 * cannot be read (another format, or a broken file): such a file is refused.
 */
export async function audioSeconds(audio: Buffer): Promise<number | null> {
  const opus = oggOpusDuration(audio);
  if (opus !== null) return Math.max(Math.ceil(opus), Math.ceil(audio.length / OPUS_MAX_BYTES_PER_SECOND));
  const wav = wavDuration(audio);
  if (wav !== null) return Math.max(1, Math.ceil(wav));
  const compressed = await compressedDuration(audio);
  return compressed === null
    ? null
    : Math.max(1, Math.ceil(compressed), Math.ceil(audio.length / COMPRESSED_MAX_BYTES_PER_SECOND));
}

/** Seconds of an MP3 or M4A file as its frames and headers tell them; null for anything else. */
async function compressedDuration(audio: Buffer): Promise<number | null> {
  try {
    const { format } = await parseBuffer(audio, undefined, { duration: true, skipCovers: true });
    const seconds = format.duration;
    if (!format.container || !READ_CONTAINERS.test(format.container)) return null;
    return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : null;
  } catch {
    return null;
  }
}

/** The language hint of every transcription: the bot's users speak Russian. */
export const TRANSCRIPTION_LANGUAGE = 'ru';

/** A voice message or audio file as it came. */
export interface VoiceInput {
  audio: Buffer;
  fileName: string;
  mimeType: string;
  /** Its length as read from the file (`audioSeconds`): what the limit, the hold and the charge count. */
  seconds: number;
}

/**
 * The answer as it is read aloud: Markdown marks and code blocks left out (they are in the text
 * answer), cut at the last sentence end within the speech limit when longer.
 */
export function speechText(answer: string): { text: string; trimmed: boolean } {
  const plain = answer
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/\*\*|__|~~|\*/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (plain.length <= SPEECH_MAX_CHARS) return { text: plain, trimmed: false };
  const head = plain.slice(0, SPEECH_MAX_CHARS);
  const sentenceEnd = Math.max(
    head.lastIndexOf('. '),
    head.lastIndexOf('! '),
    head.lastIndexOf('? '),
    head.lastIndexOf('\n'),
  );
  return { text: (sentenceEnd > SPEECH_MAX_CHARS / 2 ? head.slice(0, sentenceEnd + 1) : head).trim(), trimmed: true };
}
