import OpenAI, { toFile } from 'openai';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Logger } from '@gpt/kit';
import {
  ModelError,
  type ChatChunk,
  type ChatRequest,
  type ChatTurn,
  type GeneratedImage,
  type ModelProvider,
  type SpeechRequest,
  type TranscriptionRequest,
} from './provider';

export interface OpenAIProviderOptions {
  baseURL: string;
  apiKey: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  logger: Logger;
}

/** 429 and 5xx are worth another try; anything else (a bad request, a refused key) is not. */
const isRetryable = (err: unknown) =>
  err instanceof OpenAI.APIError
    ? err.status === undefined || err.status === 429 || err.status >= 500
    : err instanceof OpenAI.APIConnectionError;

const delay = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });

function toMessage(turn: ChatTurn): ChatCompletionMessageParam {
  if (typeof turn.content === 'string') return { role: turn.role, content: turn.content } as ChatCompletionMessageParam;
  const parts: ChatCompletionContentPart[] = turn.content.map((part) =>
    part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: { url: part.dataUrl } },
  );
  return { role: 'user', content: parts };
}

/**
 * Any OpenAI-compatible API through the `openai` package: streamed chat completions with the
 * usage chunk, image generation, audio transcription and speech. Retries with exponential back-off on 429/5xx, but only while
 * nothing has been sent to the user yet: a stream that broke midway is an error, not a retry.
 */
export function openAIProvider(options: OpenAIProviderOptions): ModelProvider {
  const client = new OpenAI({
    baseURL: options.baseURL,
    apiKey: options.apiKey ?? 'none',
    timeout: options.timeoutMs,
    maxRetries: 0,
  });

  async function withRetries<T>(signal: AbortSignal | undefined, attempt: () => Promise<T>): Promise<T> {
    for (let tries = 0; ; tries++) {
      try {
        return await attempt();
      } catch (err) {
        if (!isRetryable(err) || tries >= options.maxRetries || signal?.aborted) throw toModelError(err);
        const wait = options.retryBaseMs * 2 ** tries;
        options.logger.warn({ err, tries: tries + 1, wait }, 'model call failed; retrying');
        await delay(wait, signal);
      }
    }
  }

  return {
    kind: 'openai',
    async *chat(request: ChatRequest): AsyncIterable<ChatChunk> {
      const stream = await withRetries(request.signal, () =>
        client.chat.completions.create(
          {
            model: request.model,
            messages: request.messages.map(toMessage),
            max_completion_tokens: request.maxOutputTokens,
            stream: true,
            stream_options: { include_usage: true },
          },
          { signal: request.signal },
        ),
      );
      try {
        for await (const chunk of stream) {
          const text = chunk.choices[0]?.delta?.content;
          if (text) yield { type: 'text', text };
          if (chunk.usage) {
            yield {
              type: 'usage',
              inputTokens: chunk.usage.prompt_tokens,
              outputTokens: chunk.usage.completion_tokens,
            };
          }
        }
      } catch (err) {
        throw toModelError(err);
      }
    },
    async generateImage({ model, prompt, signal }): Promise<GeneratedImage> {
      const result = await withRetries(signal, () =>
        client.images.generate({ model, prompt, n: 1, response_format: 'b64_json' }, { signal }),
      );
      const b64 = result.data?.[0]?.b64_json;
      if (!b64) throw new ModelError('Модель не вернула изображение');
      return { png: Buffer.from(b64, 'base64'), inputTokens: result.usage?.input_tokens ?? 0 };
    },
    async transcribe({ model, audio, fileName, mimeType, language, signal }: TranscriptionRequest): Promise<string> {
      const result = await withRetries(signal, async () =>
        client.audio.transcriptions.create(
          { model, language, file: await toFile(audio, fileName, { type: mimeType }) },
          { signal },
        ),
      );
      return result.text.trim();
    },
    async speak({ model, voice, text, signal }: SpeechRequest): Promise<Buffer> {
      const response = await withRetries(signal, () =>
        client.audio.speech.create({ model, voice, input: text, response_format: 'opus' }, { signal }),
      );
      return Buffer.from(await response.arrayBuffer());
    },
  };
}

function toModelError(err: unknown): Error {
  if (err instanceof ModelError) return err;
  if (err instanceof OpenAI.APIUserAbortError) return err;
  if (err instanceof OpenAI.APIError) return new ModelError(err.message, err.status);
  return err instanceof Error ? new ModelError(err.message) : new ModelError(String(err));
}
