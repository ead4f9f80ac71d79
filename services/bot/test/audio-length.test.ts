import { describe, expect, test } from '@jest/globals';
import { audioSeconds } from '../src/domain/voice';
import { silentOggOpus } from '../src/engine/ogg-opus';
import { m4a, mp3 } from './support/audio-files';

/** A PCM WAV of `seconds` of silence at 16 kHz, 16-bit mono, with an extra chunk before its data. */
function wav(seconds: number, byteRate = 32_000): Buffer {
  const data = Buffer.alloc(Math.round(seconds * byteRate));
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'latin1');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(1, 8);
  fmt.writeUInt16LE(1, 10);
  fmt.writeUInt32LE(16_000, 12);
  fmt.writeUInt32LE(byteRate, 16);
  fmt.writeUInt16LE(2, 20);
  fmt.writeUInt16LE(16, 22);
  const list = Buffer.concat([
    Buffer.from('LIST', 'latin1'),
    Buffer.from([3, 0, 0, 0]),
    Buffer.from('abc\0', 'latin1'),
  ]);
  const head = Buffer.alloc(8);
  head.write('data', 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  const body = Buffer.concat([Buffer.from('WAVE', 'latin1'), fmt, list, head, data]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

describe('the length of a voice message or audio file, read from the file', () => {
  test('an Ogg/Opus voice message: its own length, whatever a client claims', async () => {
    await expect(audioSeconds(silentOggOpus(3))).resolves.toBe(3);
  });

  test('a WAV file: its data at its byte rate, a started second counting', async () => {
    await expect(audioSeconds(wav(2.5))).resolves.toBe(3);
    await expect(audioSeconds(wav(0.2))).resolves.toBe(1);
  });

  test('a WAV whose data chunk claims more than the file holds counts what it holds', async () => {
    const cut = wav(10).subarray(0, 44 + 12 + 32_000 * 2);
    await expect(audioSeconds(cut)).resolves.toBe(2);
  });

  test('an MP3: its frames at their sample rate, a started second counting', async () => {
    await expect(audioSeconds(mp3(3))).resolves.toBe(3);
    await expect(audioSeconds(mp3(2.5))).resolves.toBe(3);
  });

  test('an M4A: its audio track’s length, and at least its bytes at 512 kbit/s when its header claims less', async () => {
    await expect(audioSeconds(m4a(7.5))).resolves.toBe(8);
    // 1 s claimed over 320 000 bytes of media: those take a little over 5 s at 64 000 bytes a second.
    await expect(audioSeconds(m4a(1, 320_000))).resolves.toBe(6);
  });

  test('what is none of these is unreadable, and refused', async () => {
    await expect(audioSeconds(Buffer.from('ID3\x04 not really an mp3'))).resolves.toBeNull();
    await expect(audioSeconds(wav(1, 0))).resolves.toBeNull();
    await expect(audioSeconds(mp3(1).subarray(0, 3))).resolves.toBeNull();
    await expect(audioSeconds(Buffer.from('fLaC\0\0\0\x22'))).resolves.toBeNull();
  });
});
