import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import OpenAI, { toFile } from 'openai';
import { silentOggOpus } from '../src/engine/ogg-opus';
import { FAKE_PNG, startFakeOpenAI, type FakeOpenAI } from './support/fake-openai';

/** The fake is checked with the openai client the bot uses, so it is known to speak what the client expects. */
describe('fake OpenAI API driven by the openai client', () => {
  let openai: FakeOpenAI;
  let client: OpenAI;

  beforeAll(async () => {
    openai = await startFakeOpenAI();
    client = new OpenAI({ baseURL: openai.baseURL, apiKey: 'sk-test' });
  });
  afterAll(() => openai.close());
  afterEach(() => openai.reply((messages) => `Ответ на: ${String(messages.at(-1)?.content)}`));

  test('a stream delivers the answer in chunks and the usage at the end', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Сколько будет два плюс два?' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const parts: string[] = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      parts.push(chunk.choices[0]?.delta.content ?? '');
      usage = chunk.usage ?? usage;
    }
    expect(parts.join('')).toBe('Ответ на: Сколько будет два плюс два?');
    expect(parts.filter(Boolean).length).toBeGreaterThan(1);
    expect(usage).toEqual({ prompt_tokens: 7, completion_tokens: 10, total_tokens: 17 });
  });

  test('a scripted answer, after a 429 the client retries, comes whole with usage', async () => {
    openai.reply('Четыре.');
    // A later failNext replaces the earlier one: one 429, not five 500s and a 429.
    openai.failNext(500, 5);
    openai.failNext(429);
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: '2+2?' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Четыре.');
    expect(completion.usage?.completion_tokens).toBe(2);
  });

  test('a stream cut short ends the iteration with an error', async () => {
    openai.reply('один два три четыре пять шесть');
    openai.failMidStream(3);
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'считай' }],
      stream: true,
    });
    const parts: string[] = [];
    const consume = async () => {
      for await (const chunk of stream) parts.push(chunk.choices[0]?.delta.content ?? '');
    };
    await expect(consume()).rejects.toThrow();
    expect(parts.join('')).toBe('один два ');
  });

  test('a vision request is recorded with its image, and an image generation answers a PNG', async () => {
    await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Что на фото?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
      ],
    });
    expect(openai.requests.at(-1)?.imageUrls).toEqual(['data:image/png;base64,AAAA']);

    const image = await client.images.generate({ model: 'gpt-image-1', prompt: 'кот в шляпе' });
    expect(Buffer.from(image.data?.[0]?.b64_json ?? '', 'base64')).toEqual(FAKE_PNG);
  });

  test('audio is transcribed from a multipart upload, non-audio refused; speech answers Ogg/Opus', async () => {
    openai.transcribeAs((file) => `Текст из ${file.name}`);
    const ogg = silentOggOpus(1);
    const transcript = await client.audio.transcriptions.create({
      model: 'whisper-1',
      language: 'ru',
      file: await toFile(ogg, 'voice.ogg', { type: 'audio/ogg' }),
    });
    expect(transcript.text).toBe('Текст из voice.ogg');
    expect(openai.requests.at(-1)).toMatchObject({
      path: '/v1/audio/transcriptions',
      body: { model: 'whisper-1', language: 'ru' },
    });
    expect(openai.requests.at(-1)?.file?.bytes).toEqual(ogg);

    await expect(
      client.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(Buffer.from('not audio'), 'a.txt') }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('Invalid file format') });

    const speech = await client.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Привет',
      response_format: 'opus',
    });
    const audio = Buffer.from(await speech.arrayBuffer());
    expect(audio.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(audio.includes(Buffer.from('OpusHead'))).toBe(true);
    await expect(
      client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'я'.repeat(4097), response_format: 'opus' }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
