/** One part of a user's message to a model: text, or an image as a data URL. */
export type ContentPart = { type: 'text'; text: string } | { type: 'image'; dataUrl: string };

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}

export interface ChatRequest {
  /** The provider's model id (the model row's name). */
  model: string;
  messages: ChatTurn[];
  maxOutputTokens: number;
  signal?: AbortSignal;
}

/** What a streamed answer yields: pieces of text as they arrive, then the real token usage once. */
export type ChatChunk = { type: 'text'; text: string } | { type: 'usage'; inputTokens: number; outputTokens: number };

export interface GeneratedImage {
  png: Buffer;
  /** Prompt tokens the provider reported, if any. */
  inputTokens: number;
}

/** A voice message or audio file to turn into text. */
export interface TranscriptionRequest {
  model: string;
  audio: Buffer;
  fileName: string;
  mimeType: string;
  /** The language hint (ISO 639-1). */
  language: string;
  signal?: AbortSignal;
}

/** Text to read aloud, answered as Ogg/Opus (what Telegram's sendVoice takes). */
export interface SpeechRequest {
  model: string;
  voice: string;
  text: string;
  signal?: AbortSignal;
}

/** A model API: the real OpenAI-compatible one, or the local sandbox. */
export interface ModelProvider {
  /** 'sandbox' answers are test answers; the bot says so. */
  readonly kind: 'openai' | 'sandbox';
  chat(request: ChatRequest): AsyncIterable<ChatChunk>;
  generateImage(request: { model: string; prompt: string; signal?: AbortSignal }): Promise<GeneratedImage>;
  /** The text spoken in the audio ('' when nothing is said). */
  transcribe(request: TranscriptionRequest): Promise<string>;
  speak(request: SpeechRequest): Promise<Buffer>;
}

/** The model failed in a way worth telling the user (after retries). */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}
