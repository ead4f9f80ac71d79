import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { silentOggOpus } from './ogg-opus';
import type { ChatChunk, ChatRequest, ChatTurn, GeneratedImage, ModelProvider } from './provider';

/** About how many characters one token holds in mixed Russian and English text. */
const CHARS_PER_TOKEN = 3;
const tokensOf = (text: string) => Math.max(1, Math.ceil(text.length / CHARS_PER_TOKEN));

const textOf = (turn: ChatTurn) =>
  typeof turn.content === 'string'
    ? turn.content
    : turn.content.map((part) => (part.type === 'text' ? part.text : '[изображение]')).join(' ');

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Answers locally when no model API is configured (never in production), so the embedded default
 * shows the whole flow with no keys: the answer says plainly that it is a test answer, streams in
 * pieces, and reports token counts the way a real API would.
 */
export function sandboxProvider(options: { chunkDelayMs?: number } = {}): ModelProvider {
  // About 2.5 s in all: long enough that the answer is seen growing under Telegram's one message a second per chat.
  const chunkDelayMs = options.chunkDelayMs ?? 60;
  return {
    kind: 'sandbox',
    async *chat(request: ChatRequest): AsyncIterable<ChatChunk> {
      const question = textOf(request.messages.at(-1) ?? { role: 'user', content: '' });
      const hasImage = request.messages.some(
        (turn) => typeof turn.content !== 'string' && turn.content.some((part) => part.type === 'image'),
      );
      const answer = [
        `🧪 **Тестовый ответ** (песочница: модель ${request.model} не вызывалась, API модели не настроен).`,
        '',
        hasImage ? 'Изображение получено, в настоящем режиме модель его опишет.' : '',
        `Вы написали: «${question.length > 300 ? `${question.slice(0, 300)}…` : question}»`,
        '',
        'Чтобы получать настоящие ответы, задайте `LLM_API_URL` и `LLM_API_KEY`.',
      ]
        .filter((line, index, lines) => line !== '' || lines[index - 1] !== '')
        .join('\n');
      const words = answer.split(/(?<=\s)/);
      const limit = request.maxOutputTokens * CHARS_PER_TOKEN;
      let sent = '';
      for (const word of words) {
        if (request.signal?.aborted) throw request.signal.reason as Error;
        if (sent.length + word.length > limit) break;
        sent += word;
        yield { type: 'text', text: word };
        await wait(chunkDelayMs);
      }
      const prompt = request.messages.map(textOf).join('\n');
      yield {
        type: 'usage',
        inputTokens: tokensOf(prompt) + 3 * request.messages.length,
        outputTokens: tokensOf(sent),
      };
    },
    async generateImage({ prompt }): Promise<GeneratedImage> {
      return { png: placeholderPng(prompt), inputTokens: tokensOf(prompt) };
    },
    // No speech is recognised: the transcript says what arrived, so the rest of the flow can be seen.
    async transcribe({ audio }): Promise<string> {
      return `🧪 Тестовое распознавание: получено аудио (${Math.ceil(audio.length / 1024)} КБ), речь не распознавалась.`;
    },
    // Silence as long as reading the text would take (about 15 characters a second).
    async speak({ text }): Promise<Buffer> {
      return silentOggOpus(Math.min(60, Math.max(1, text.length / 15)));
    },
  };
}

/** A 256×256 gradient in a colour derived from the prompt: a real PNG, plainly not a real picture. */
function placeholderPng(prompt: string): Buffer {
  const [r = 0, g = 0, b = 0] = createHash('sha256').update(prompt).digest();
  const size = 256;
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3);
    for (let x = 0; x < size; x++) {
      const shade = (x + y) / (2 * size);
      rows[row + 1 + x * 3] = Math.round(r * shade);
      rows[row + 2 + x * 3] = Math.round(g * shade);
      rows[row + 3 + x * 3] = Math.round(b * (1 - shade));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
