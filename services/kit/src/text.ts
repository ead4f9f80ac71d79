/** Bidirectional control characters (marks, embeddings, overrides, isolates): stored text is left-to-right only. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** Removes bidirectional control characters, which could make text display as something it is not. */
export function stripBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
