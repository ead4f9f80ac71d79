/** Small MP3 and M4A files of a known length, made byte by byte: the formats a phone's recorder saves. */

/** An MP3 of `seconds` of MPEG-1 Layer III frames at 128 kbit/s and 48 kHz (each 384 bytes, 24 ms). */
export function mp3(seconds: number): Buffer {
  const frame = Buffer.alloc(384);
  frame.writeUInt32BE(0xfffb9404, 0);
  return Buffer.concat(Array<Buffer>(Math.round(seconds / 0.024)).fill(frame));
}

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

/**
 * An M4A whose AAC track's header says `seconds` at 44.1 kHz, followed by `mediaBytes` of media data: the
 * header is all that tells its length, so a file may claim less than its bytes hold.
 */
export function m4a(seconds: number, mediaBytes = 0): Buffer {
  const rate = 44_100;
  const ftyp = box('ftyp', Buffer.from('M4A \0\0\0\0M4A isom', 'latin1'));
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12);
  mvhd.writeUInt32BE(Math.round(seconds * 1000), 16);
  mvhd.writeUInt32BE(0x00010000, 20);
  mvhd.writeUInt16BE(0x0100, 24);
  mvhd.writeUInt32BE(2, 96);
  const tkhd = Buffer.alloc(84);
  tkhd.writeUInt32BE(7, 0);
  tkhd.writeUInt32BE(1, 12);
  tkhd.writeUInt32BE(Math.round(seconds * 1000), 20);
  const mdhd = Buffer.alloc(24);
  mdhd.writeUInt32BE(rate, 12);
  mdhd.writeUInt32BE(Math.round(seconds * rate), 16);
  mdhd.writeUInt16BE(0x55c4, 20);
  const hdlr = Buffer.alloc(25);
  hdlr.write('soun', 8, 'latin1');
  const sound = Buffer.alloc(28);
  sound.writeUInt16BE(1, 6);
  sound.writeUInt16BE(1, 16);
  sound.writeUInt16BE(16, 18);
  sound.writeUInt32BE((rate << 16) >>> 0, 24);
  const entries = Buffer.alloc(8);
  entries.writeUInt32BE(1, 4);
  const stbl = box('stbl', box('stsd', entries, box('mp4a', sound)));
  const mdia = box('mdia', box('mdhd', mdhd), box('hdlr', hdlr), box('minf', stbl));
  const moov = box('moov', box('mvhd', mvhd), box('trak', box('tkhd', tkhd), mdia));
  return Buffer.concat([ftyp, moov, box('mdat', Buffer.alloc(mediaBytes))]);
}
