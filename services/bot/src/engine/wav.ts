/**
 * The length of a WAV file (RIFF/WAVE, as phones and desktop recorders save PCM audio): its data
 * chunk's bytes as present in the file, at the byte rate its `fmt ` chunk names — what a decoder
 * plays. Null when the file is not WAV or its chunks cannot be read.
 */
export function wavDuration(wav: Buffer): number | null {
  if (wav.length < 12 || wav.toString('latin1', 0, 4) !== 'RIFF' || wav.toString('latin1', 8, 12) !== 'WAVE')
    return null;
  let byteRate = 0;
  for (let offset = 12; offset + 8 <= wav.length;) {
    const id = wav.toString('latin1', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ' && size >= 16 && body + 16 <= wav.length) byteRate = wav.readUInt32LE(body + 8);
    if (id === 'data') return byteRate > 0 ? Math.min(size, wav.length - body) / byteRate : null;
    // Chunks are padded to an even size.
    offset = body + size + (size % 2);
  }
  return null;
}
