import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParams,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ImageGenerateParams, ImagesResponse } from 'openai/resources/images';
import type { SpeechCreateParams } from 'openai/resources/audio/speech';
import type { Transcription } from 'openai/resources/audio/transcriptions';
import { readRequestBytes, sendJson } from '@gpt/kit/testing';
import { silentOggOpus } from '../../src/engine/ogg-opus';

/** A 1×1 PNG: what every image generation answers, as `b64_json`. */
export const FAKE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** One request the fake received, for asserting on what the bot sent the model. */
export interface RecordedOpenAIRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** Chat requests: the messages as sent. */
  messages: ChatCompletionMessageParam[];
  /** Chat requests: every `image_url.url` in the messages' content parts (vision). */
  imageUrls: string[];
  /** Multipart requests (transcriptions): the uploaded file. */
  file?: { name: string; type: string; bytes: Buffer };
}

/** Writes the transcript of an uploaded audio file. */
export type Transcriber = (file: { name: string; bytes: Buffer }) => string;

/** Writes the answer from the request's messages (and the whole request, for the model or options). */
export type Responder = (messages: ChatCompletionMessageParam[], request: ChatCompletionCreateParams) => string;

export interface FakeOpenAI {
  /** For the `openai` client's `baseURL`. */
  baseURL: string;
  requests: RecordedOpenAIRequest[];
  /** Every later chat completion answers this text, or what the function makes of the request. */
  reply(answer: Responder | string): void;
  /** Every later transcription answers this text (or what the function makes of the file). */
  transcribeAs(transcript: Transcriber | string): void;
  /**
   * The next `times` requests fail with this status before any output (429 asks to retry soon);
   * a new call replaces failures still queued, so `failNext(500, 0)` ends them.
   */
  failNext(status: 429 | 500 | 503 | 400, times?: number): void;
  /** The next streamed completion stops after a few chunks: the connection closes without `[DONE]`. */
  failMidStream(afterChunks?: number): void;
  /** Streams wait this long before each chunk. */
  slow(msPerChunk: number): void;
  /**
   * The next streamed completion stops after this many words of its answer until the returned function
   * is called (several holds apply to the same completion), so a test sees it mid-answer for certain.
   */
  holdAfterWords(words: number): () => void;
  /** Resolves when the client next closes a streamed completion before its end (an aborted call). */
  streamClosedByClient(timeoutMs?: number): Promise<void>;
  /** Streamed completions the client closed before their end, so far. */
  readonly closedStreams: number;
  close(): Promise<void>;
}

const errorBodies: Record<number, { message: string; type: string; code: string | null }> = {
  400: { message: 'Invalid request.', type: 'invalid_request_error', code: null },
  401: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
  404: { message: 'Unknown request URL.', type: 'invalid_request_error', code: 'unknown_url' },
  429: { message: 'Rate limit reached. Please try again in 20ms.', type: 'requests', code: 'rate_limit_exceeded' },
  500: { message: 'The server had an error while processing your request.', type: 'server_error', code: null },
  503: { message: 'The engine is currently overloaded.', type: 'server_error', code: null },
};

/** Roughly what a tokenizer makes of text: a token per four characters. */
const tokens = (characters: number) => Math.ceil(characters / 4);
/** What a low-detail image costs in prompt tokens. */
const IMAGE_TOKENS = 85;

/** What the speech endpoint reads at most, as the real API. */
export const SPEECH_INPUT_LIMIT = 4096;

const AUDIO_FORMATS = "['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']";

/** Audio containers the transcription endpoint takes, by their first bytes. */
function isAudio(bytes: Buffer): boolean {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1');
  return (
    ascii(0, 4) === 'OggS' ||
    ascii(0, 4) === 'fLaC' ||
    ascii(0, 3) === 'ID3' ||
    (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) ||
    (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') ||
    ascii(4, 8) === 'ftyp' ||
    bytes.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))
  );
}

/**
 * A stand-in for an OpenAI-compatible API on localhost: chat completions (whole or streamed as
 * server-sent events, with the usage chunk when asked), image generation, audio transcription
 * (multipart, refusing what is not audio) and speech (Ogg/Opus), the API's error body,
 * and the faults a real provider shows (rate limits, 5xx, a stream cut short, slow output).
 */
export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const requests: RecordedOpenAIRequest[] = [];
  let responder: Responder = (messages) => `Ответ на: ${lastUserText(messages)}`;
  let transcriber: Transcriber = () => 'Распознанная речь';
  let failures: number[] = [];
  let cutStreamAfter: number | null = null;
  let msPerChunk = 0;
  let holds: { words: number; released: Promise<void> }[] = [];
  let closedStreams = 0;
  const closeWaiters = new Set<() => void>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bytes = await readRequestBytes(req);
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const contentType = req.headers['content-type'] ?? '';
    if (/^multipart\/form-data/i.test(contentType)) return handleMultipart(req, res, path, bytes, contentType);
    const raw = bytes.toString('utf8');
    let json: unknown;
    try {
      json = raw ? JSON.parse(raw) : {};
    } catch {
      fail(res, 400, 'We could not parse the JSON body of your request.');
      return;
    }
    const body = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
    const messages = Array.isArray(body.messages) ? (body.messages as ChatCompletionMessageParam[]) : [];
    requests.push({ path, headers: req.headers, body, messages, imageUrls: imageUrls(messages) });

    if (!/^Bearer \S+/.test(req.headers.authorization ?? '')) return fail(res, 401);
    const status = failures.shift();
    if (status) return fail(res, status);
    if (req.method === 'POST' && path === '/v1/chat/completions') return chat(res, json as ChatCompletionCreateParams);
    if (req.method === 'POST' && path === '/v1/images/generations') return image(res, json as ImageGenerateParams);
    if (req.method === 'POST' && path === '/v1/audio/speech') return speech(res, json as SpeechCreateParams);
    fail(res, 404, `Unknown request URL: ${req.method} ${path}.`);
  }

  async function handleMultipart(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    bytes: Buffer,
    contentType: string,
  ): Promise<void> {
    const form = await new Request('http://fake.local/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new Uint8Array(bytes),
    })
      .formData()
      .catch(() => null);
    const body: Record<string, unknown> = {};
    let file: RecordedOpenAIRequest['file'];
    for (const [name, value] of form?.entries() ?? []) {
      if (typeof value === 'string') body[name] = value;
      else file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
    }
    requests.push({ path, headers: req.headers, body, messages: [], imageUrls: [], ...(file ? { file } : {}) });

    if (!/^Bearer \S+/.test(req.headers.authorization ?? '')) return fail(res, 401);
    if (!form) return fail(res, 400, 'Could not parse multipart form.');
    const status = failures.shift();
    if (status) return fail(res, status);
    if (req.method !== 'POST' || path !== '/v1/audio/transcriptions')
      return fail(res, 404, `Unknown request URL: ${req.method} ${path}.`);
    if (typeof body.model !== 'string') return fail(res, 400, "Missing required parameter: 'model'.");
    if (!file) return fail(res, 400, "Missing required parameter: 'file'.");
    if (!isAudio(file.bytes)) return fail(res, 400, `Invalid file format. Supported formats: ${AUDIO_FORMATS}`);
    const transcription: Transcription = { text: transcriber(file) };
    if (body.response_format === 'text') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end(transcription.text);
      return;
    }
    sendJson(res, 200, transcription);
  }

  function speech(res: ServerResponse, request: SpeechCreateParams): void {
    for (const name of ['model', 'input', 'voice'] as const)
      if (!request[name]) return fail(res, 400, `Missing required parameter: '${name}'.`);
    if (request.input.length > SPEECH_INPUT_LIMIT)
      return fail(res, 400, `'input' is too long: at most ${SPEECH_INPUT_LIMIT} characters.`);
    if (request.response_format !== 'opus') return fail(res, 400, 'This fake speaks opus only.');
    const audio = silentOggOpus(request.input.length / 15);
    res.writeHead(200, { 'Content-Type': 'audio/ogg', 'Content-Length': audio.length }).end(audio);
  }

  async function chat(res: ServerResponse, request: ChatCompletionCreateParams): Promise<void> {
    if (typeof request.model !== 'string' || !Array.isArray(request.messages) || request.messages.length === 0)
      return fail(res, 400, "Missing required parameter: 'model' or 'messages'.");
    const answer = responder(request.messages, request);
    const id = `chatcmpl-${randomBytes(12).toString('base64url')}`;
    const created = Math.floor(Date.now() / 1000);
    const usage = usageOf(request.messages, answer);

    if (!request.stream) {
      const completion: ChatCompletion = {
        id,
        object: 'chat.completion',
        created,
        model: request.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: answer, refusal: null },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage,
      };
      return sendJson(res, 200, completion);
    }

    const chunk = (
      delta: ChatCompletionChunk.Choice.Delta,
      finish: ChatCompletionChunk.Choice['finish_reason'] = null,
    ): ChatCompletionChunk => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model: request.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
    const chunks = [
      chunk({ role: 'assistant', content: '', refusal: null }),
      ...(answer.match(/\s*\S+\s*/g) ?? [answer]).map((piece) => chunk({ content: piece })),
      chunk({}, 'stop'),
    ];
    if (request.stream_options?.include_usage)
      chunks.push({ id, object: 'chat.completion.chunk', created, model: request.model, choices: [], usage });

    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    let cut = false;
    res.once('close', () => {
      if (res.writableEnded || cut) return;
      closedStreams += 1;
      for (const waiter of [...closeWaiters]) waiter();
    });
    const cutAfter = cutStreamAfter;
    cutStreamAfter = null;
    const held = holds;
    holds = [];
    for (const [index, data] of chunks.entries()) {
      if (res.destroyed) return;
      // The first chunk only names the role: the chunk at `index` holds the answer's word number `index`.
      for (const hold of held) if (hold.words + 1 === index) await hold.released;
      if (cutAfter !== null && index >= cutAfter) {
        cut = true;
        res.destroy();
        return;
      }
      if (msPerChunk > 0) await sleep(msPerChunk);
      // Waiting for each write to reach the socket means a cut stream has really delivered its first chunks.
      await new Promise((resolve) => res.write(`data: ${JSON.stringify(data)}\n\n`, resolve));
    }
    res.end('data: [DONE]\n\n');
  }

  function image(res: ServerResponse, request: ImageGenerateParams): void {
    if (typeof request.prompt !== 'string' || request.prompt.trim() === '')
      return fail(res, 400, "Missing required parameter: 'prompt'.");
    const count = request.n ?? 1;
    const input = tokens(request.prompt.length);
    const output = 272 * count;
    const answer: ImagesResponse = {
      created: Math.floor(Date.now() / 1000),
      data: Array.from({ length: count }, () => ({ b64_json: FAKE_PNG.toString('base64') })),
      usage: {
        input_tokens: input,
        output_tokens: output,
        total_tokens: input + output,
        input_tokens_details: { text_tokens: input, image_tokens: 0 },
      },
    };
    sendJson(res, 200, answer);
  }

  function fail(res: ServerResponse, status: number, message?: string): void {
    const error = errorBodies[status] ?? errorBodies[500]!;
    // `retry-after-ms` is what the openai client reads first; a short one keeps retries fast.
    if (status === 429) res.setHeader('retry-after-ms', '20');
    sendJson(res, status, { error: { ...error, message: message ?? error.message, param: null } });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => fail(res, 500, String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    reply(answer) {
      responder = typeof answer === 'string' ? () => answer : answer;
    },
    transcribeAs(transcript) {
      transcriber = typeof transcript === 'string' ? () => transcript : transcript;
    },
    failNext(status, times = 1) {
      failures = Array<number>(times).fill(status);
    },
    failMidStream(afterChunks = 3) {
      cutStreamAfter = afterChunks;
    },
    slow(ms) {
      msPerChunk = ms;
    },
    holdAfterWords(words) {
      let release = () => {};
      holds.push({ words, released: new Promise<void>((resolve) => (release = resolve)) });
      return release;
    },
    get closedStreams() {
      return closedStreams;
    },
    streamClosedByClient(timeoutMs = 10_000) {
      const before = closedStreams;
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          closeWaiters.delete(check);
          reject(new Error(`no stream was closed by the client in ${timeoutMs} ms`));
        }, timeoutMs);
        function check() {
          if (closedStreams === before) return;
          clearTimeout(timer);
          closeWaiters.delete(check);
          resolve();
        }
        closeWaiters.add(check);
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The text parts of a message's content. */
function textOf(message: ChatCompletionMessageParam): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => ('text' in part ? part.text : '')).join('\n');
}

function lastUserText(messages: ChatCompletionMessageParam[]): string {
  const last = messages.findLast((message) => message.role === 'user');
  return last ? textOf(last) : '';
}

function imageUrls(messages: ChatCompletionMessageParam[]): string[] {
  return messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.flatMap((part) => (part.type === 'image_url' ? [part.image_url.url] : []))
      : [],
  );
}

function usageOf(messages: ChatCompletionMessageParam[], answer: string): CompletionUsage {
  const images = imageUrls(messages).length;
  const prompt = tokens(messages.reduce((sum, message) => sum + textOf(message).length, 0)) + images * IMAGE_TOKENS;
  const completion = tokens(answer.length);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}
