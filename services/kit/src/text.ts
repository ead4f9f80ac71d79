/** Bidirectional control characters (marks, embeddings, overrides, isolates): stored text is left-to-right only. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** Removes bidirectional control characters, which could make text display as something it is not. */
export function stripBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

/** Control characters (a line break would split a header or a log line), path separators and bidi controls. */
const FILE_NAME_UNSAFE = /[\p{Cc}\p{Zl}\p{Zp}/\\\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** A file name fit to store, show and send in a header: the unsafe characters above removed; '' when nothing is left. */
export function safeFileName(name: string): string {
  return name.replace(FILE_NAME_UNSAFE, '').trim();
}
