/**
 * A silent Ogg/Opus file of a given length: what the sandbox speaks (and the test model API answers)
 * in place of a real voice, in the container Telegram's sendVoice takes, playable by browsers.
 */

/** One Opus packet of 20 ms of silence (CELT, fullband, mono). */
const SILENT_FRAME = Buffer.from([0xf8, 0xff, 0xfe]);
const FRAME_SAMPLES = 960;
const SAMPLE_RATE = 48_000;
const PRE_SKIP = 312;

/** CRC-32 of Ogg pages: polynomial 0x04c11db7, not reflected, starting at 0. */
const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let value = index << 24;
  for (let bit = 0; bit < 8; bit++) value = value & 0x80000000 ? (value << 1) ^ 0x04c11db7 : value << 1;
  return value >>> 0;
});

function oggCrc(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  return crc;
}

/** One Ogg page holding whole packets (each under 255 bytes). */
function page(packets: Buffer[], options: { serial: number; sequence: number; granule: bigint; flags: number }) {
  const header = Buffer.alloc(27);
  header.write('OggS', 0, 'ascii');
  header[5] = options.flags;
  header.writeBigInt64LE(options.granule, 6);
  header.writeUInt32LE(options.serial, 14);
  header.writeUInt32LE(options.sequence, 18);
  header[26] = packets.length;
  const body = Buffer.concat([header, Buffer.from(packets.map((packet) => packet.length)), ...packets]);
  body.writeUInt32LE(oggCrc(body), 22);
  return body;
}

export function silentOggOpus(seconds: number): Buffer {
  const serial = 0x5a17e;
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'ascii');
  head[8] = 1;
  head[9] = 1;
  head.writeUInt16LE(PRE_SKIP, 10);
  head.writeUInt32LE(SAMPLE_RATE, 12);
  const vendor = Buffer.from('gpt-bot sandbox', 'ascii');
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'ascii');
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);

  const pages = [
    page([head], { serial, sequence: 0, granule: 0n, flags: 0x02 }),
    page([tags], { serial, sequence: 1, granule: 0n, flags: 0 }),
  ];
  const frames = Math.max(1, Math.round((seconds * SAMPLE_RATE) / FRAME_SAMPLES));
  // 50 frames (one second) a page.
  for (let done = 0; done < frames;) {
    const count = Math.min(50, frames - done);
    done += count;
    pages.push(
      page(Array<Buffer>(count).fill(SILENT_FRAME), {
        serial,
        sequence: pages.length,
        granule: BigInt(done * FRAME_SAMPLES + PRE_SKIP),
        flags: done === frames ? 0x04 : 0,
      }),
    );
  }
  return Buffer.concat(pages);
}

/**
 * Seconds of an Ogg/Opus file: its last page's granule position less the pre-skip its OpusHead names,
 * at Opus's 48 kHz; null when it is not one or tells none.
 */
export function oggOpusDuration(ogg: Buffer): number | null {
  if (ogg.toString('latin1', 0, 4) !== 'OggS') return null;
  const last = ogg.lastIndexOf('OggS');
  const head = ogg.indexOf('OpusHead');
  if (last + 14 > ogg.length || head < 0 || head + 12 > ogg.length) return null;
  const samples = Number(ogg.readBigInt64LE(last + 6)) - ogg.readUInt16LE(head + 10);
  return samples > 0 ? samples / SAMPLE_RATE : null;
}

/** Whole seconds of an Ogg/Opus file; 0 when it is not one. */
export function oggOpusSeconds(ogg: Buffer): number {
  return Math.round(oggOpusDuration(ogg) ?? 0);
}
