import { type HistoryMessage, type MessageRecordedData, personName } from '@gpt/contracts';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type Harness, nextNumber, startHarness } from './support/chat-history';

let h: Harness;
let telegramId: number;
let userId: number;
let modelName: string;

beforeAll(async () => {
  h = await startHarness();
  const user = await h.registerUser();
  telegramId = user.telegram_id!;
  userId = user.user_id;
  modelName = (await h.createModel({ input_price_per_1m: '2.500000', output_price_per_1m: '10.000000' })).model;
});
afterAll(() => h.close());

const post = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  h.send<HistoryMessage & { code: string; error: string }>(
    'POST',
    '/api/bot/messages',
    { telegram_id: telegramId, model: modelName, user_message: 'Вопрос', input_tokens: 1, output_tokens: 1, ...body },
    { ...h.bot, ...headers },
  );

const setSetting = (key: string, value: string) => h.send('PUT', `/api/admin/sys_vals/${key}`, { value });

/** The message.recorded rows of the outbox for one message. */
async function recordedEvents(messageId: number): Promise<MessageRecordedData[]> {
  const rows = await h.service.deps.db
    .selectFrom('outbox')
    .select('payload')
    .where('type', '=', 'message.recorded')
    .execute();
  return rows
    .map((row) => (JSON.parse(row.payload) as { data: MessageRecordedData }).data)
    .filter((data) => data.message_id === messageId);
}

describe('POST /api/bot/messages: who wrote it', () => {
  test('when recorded, then message.recorded and the history name the person as everywhere: username, else the site e-mail, else names, else Telegram id', async () => {
    const named = await h.registerUser();
    const linked = await h.registerUser({
      username: null,
      telegram_username: null,
      first_name: 'Гость',
      last_name: null,
    });
    const guest = await h.registerUser({
      email: null,
      username: null,
      telegram_username: null,
      first_name: 'Гость',
      last_name: null,
    });
    const bare = await h.registerUser({
      email: null,
      username: null,
      telegram_username: null,
      first_name: null,
      last_name: null,
    });
    const names = [];
    for (const user of [named, linked, guest, bare]) {
      const res = await post({ telegram_id: user.telegram_id });
      expect(res.status).toBe(201);
      expect(personName(res.body)).toBe((await recordedEvents(res.body.id))[0]?.user_name);
      names.push((await recordedEvents(res.body.id))[0]?.user_name);
    }
    // A linked customer is known by their site e-mail, never by the sandbox's «Гость».
    expect(names).toEqual([`@${named.username}`, linked.email, 'Гость', `Telegram ID ${bare.telegram_id}`]);
  });
});

describe('POST /api/bot/messages: the price', () => {
  test('when tokens and prices are known, then costs are exact to the last decimal and credits rounded up', async () => {
    const res = await post({ input_tokens: 1234, output_tokens: 567 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      user_id: userId,
      telegram_id: telegramId,
      model: modelName,
      status: 'success',
      input_tokens: 1234,
      output_tokens: 567,
      input_cost: '0.003085000000',
      output_cost: '0.005670000000',
      total_cost: '0.008755000000',
      // 0.008755 $ × 95 ₽/$ × 2 × 100 credits/₽ = 166.345 → 167
      cost: 167,
    });
  });

  test('when prices use all 6 decimals, then the sixth decimal is carried through exactly', async () => {
    const { model } = await h.createModel({ input_price_per_1m: '0.150001', output_price_per_1m: '0.600007' });
    const res = await post({ model, input_tokens: 3, output_tokens: 7 });
    expect(res.body).toMatchObject({
      input_cost: '0.000000450003',
      output_cost: '0.000004200049',
      total_cost: '0.000004650052',
      cost: 1,
    });
  });

  test('when floats would drift (0.1 + 0.2), then the decimal sum is exact and credits are not over-charged', async () => {
    const { model } = await h.createModel({ input_price_per_1m: '0.1', output_price_per_1m: '0.2' });
    const res = await post({ model, input_tokens: 1_000_000, output_tokens: 1_000_000 });
    expect(res.body).toMatchObject({
      input_cost: '0.100000000000',
      output_cost: '0.200000000000',
      total_cost: '0.300000000000',
      cost: 5700,
    });
  });

  test('when the settings change, then the next message uses them', async () => {
    const { model } = await h.createModel({ input_price_per_1m: '1', output_price_per_1m: '1' });
    await setSetting('usd_rub_rate', '100');
    await setSetting('credit_markup', '1.5');
    await setSetting('credits_per_rub', '10');
    try {
      const res = await post({ model, input_tokens: 1_000_000, output_tokens: 0 });
      // 1 $ × 100 × 1.5 × 10
      expect(res.body).toMatchObject({ total_cost: '1.000000000000', cost: 1500 });
    } finally {
      await setSetting('usd_rub_rate', '95.00');
      await setSetting('credit_markup', '2.0');
      await setSetting('credits_per_rub', '100');
    }
  });

  test('when the status is error, then it costs nothing and keeps its error message', async () => {
    const res = await post({
      status: 'error',
      error_message: 'Модель недоступна',
      input_tokens: 500,
      output_tokens: 0,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'error',
      error_message: 'Модель недоступна',
      input_tokens: 500,
      input_cost: '0.000000000000',
      output_cost: '0.000000000000',
      total_cost: '0.000000000000',
      cost: 0,
    });
    const [event] = await recordedEvents(res.body.id);
    expect(event).toMatchObject({ status: 'error', cost: 0, total_cost: '0.000000000000' });
  });

  test('when the model price changes later, then old messages keep the price they were recorded at', async () => {
    const model = await h.createModel({ input_price_per_1m: '1.000000', output_price_per_1m: '2.000000' });
    const before = await post({ model: model.model, input_tokens: 1000, output_tokens: 1000 });
    await h.send('PUT', `/api/admin/models/${model.id}`, {
      model: model.model,
      input_price_per_1m: '5',
      output_price_per_1m: '7',
    });
    const after = await post({ model: model.model, input_tokens: 1000, output_tokens: 1000 });

    const old = await h.get<HistoryMessage>(`/api/admin/history/${before.body.id}`);
    // 0.003 $ × 95 × 2 × 100 = 57 credits
    expect(old.body).toMatchObject({ input_cost: '0.001000000000', output_cost: '0.002000000000', cost: 57 });
    expect(old.body.total_cost).toBe(before.body.total_cost);
    expect(after.body).toMatchObject({ input_cost: '0.005000000000', output_cost: '0.007000000000' });
  });
});

describe('POST /api/bot/messages: who and what', () => {
  test('when the model is unknown, then 400 naming it', async () => {
    const res = await post({ model: 'no-such-model' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'unknown_model', error: 'Неизвестная модель: no-such-model' });
  });

  test('when the model is inactive, then the message is still recorded at its price', async () => {
    const { model } = await h.createModel({ is_active: false });
    expect((await post({ model })).status).toBe(201);
  });

  test('when the telegram_id is unknown, then 404 with a clear message', async () => {
    const res = await post({ telegram_id: 123 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'user_not_found', error: 'Пользователь с telegram_id 123 не найден' });
  });

  test('when the user is named by user_id, then the message is theirs', async () => {
    const res = await post({ telegram_id: undefined, user_id: userId });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ user_id: userId, telegram_id: telegramId });
    expect((await post({ telegram_id: undefined, user_id: 999_999_999 })).status).toBe(404);
  });

  test('when telegram_id and user_id name different users, then 400', async () => {
    const other = await h.registerUser();
    const res = await post({ user_id: other.user_id });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('user_mismatch');
  });

  test.each([
    [{ telegram_id: undefined }, 'Укажите telegram_id или user_id'],
    [{ input_tokens: -1 }, 'input_tokens должен быть целым числом от 0 до 1 000 000 000'],
    [{ output_tokens: 1.5 }, 'output_tokens должен быть целым числом от 0 до 1 000 000 000'],
    [{ input_tokens: 1_000_000_001 }, 'input_tokens должен быть целым числом от 0 до 1 000 000 000'],
    [{ model: '' }, 'Укажите модель'],
    [{ status: 'pending' }, 'Статус сообщения: success или error'],
  ])('when the body has %j, then 400 "%s"', async (body, message) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  test('without the bot key, then 401', async () => {
    const res = await h.send('POST', '/api/bot/messages', { telegram_id: telegramId }, {});
    expect(res.status).toBe(401);
  });

  test('when the body is neither JSON nor multipart, then 415', async () => {
    const res = await fetch(`${h.url}/api/bot/messages`, {
      method: 'POST',
      headers: { ...h.bot, 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(res.status).toBe(415);
  });
});

describe('POST /api/bot/messages: generated images and the billing hold', () => {
  test('when an image model made pictures under a hold, then each image is priced and the hold travels to billing', async () => {
    const { model } = await h.createModel({ input_price_per_1m: '5', output_price_per_1m: '0', image_price: '0.04' });
    const holdId = '2f1c7a3e-9b0d-4c51-8e3a-6d2b1f0e9a47';
    const res = await post({ model, input_tokens: 1000, output_tokens: 0, image_count: 2, hold_id: holdId });

    expect(res.status).toBe(201);
    // $0.005 of prompt + 2 × $0.04 = $0.085; × 95 × 2 × 100 = 1 615 credits.
    expect(res.body).toMatchObject({
      input_cost: '0.005000000000',
      total_cost: '0.085000000000',
      cost: 1615,
      image_count: 2,
      hold_id: holdId,
    });
    const [event] = await recordedEvents(res.body.id);
    expect(event).toMatchObject({ image_count: 2, hold_id: holdId, cost: 1615, total_cost: '0.085000000000' });
  });

  test('when the message failed, then its images cost nothing and the hold is still named', async () => {
    const { model } = await h.createModel({ image_price: '0.04' });
    const holdId = '5a0e4c2d-1f3b-4e6a-9c8d-7b2a1e0f3d59';
    const res = await post({ model, status: 'error', error_message: 'Таймаут', image_count: 1, hold_id: holdId });
    expect(res.body).toMatchObject({ cost: 0, total_cost: '0.000000000000', hold_id: holdId });
  });

  test('when image_count or hold_id is malformed, then 400', async () => {
    expect((await post({ image_count: -1 })).status).toBe(400);
    expect((await post({ image_count: 101 })).status).toBe(400);
    expect((await post({ hold_id: 'hold-1' })).status).toBe(400);
  });
});

describe('POST /api/bot/messages: voice and mode', () => {
  test('when a voice message was transcribed and the answer spoken, then both are priced on their models and recorded with the mode', async () => {
    const whisper = await h.createModel({ transcription_price_per_minute: '0.006' });
    const tts = await h.createModel({ speech_price_per_1k_chars: '0.015' });
    const res = await post({
      input_tokens: 0,
      output_tokens: 0,
      mode: 'Переводчик',
      transcription_model: whisper.model,
      audio_seconds: 90,
      speech_model: tts.model,
      speech_characters: 2000,
    });
    expect(res.status).toBe(201);
    // 1.5 min × $0.006 + 2 × $0.015 = $0.039; × 95 × 2 × 100 = 741 credits.
    expect(res.body).toMatchObject({
      mode: 'Переводчик',
      audio_seconds: 90,
      transcription_cost: '0.009000000000',
      speech_characters: 2000,
      speech_cost: '0.030000000000',
      total_cost: '0.039000000000',
      cost: 741,
    });
    const [event] = await recordedEvents(res.body.id);
    expect(event).toMatchObject({ cost: 741, total_cost: '0.039000000000' });
    const read = await h.get<HistoryMessage>(`/api/admin/history/${res.body.id}`, h.admin);
    expect(read.body).toMatchObject({
      mode: 'Переводчик',
      transcription_cost: '0.009000000000',
      speech_cost: '0.030000000000',
    });
  });

  test('when the transcription failed, then the message costs nothing', async () => {
    const whisper = await h.createModel({ transcription_price_per_minute: '0.006' });
    const res = await post({ status: 'error', transcription_model: whisper.model, audio_seconds: 30 });
    expect(res.body).toMatchObject({ cost: 0, transcription_cost: '0.000000000000', audio_seconds: 30 });
  });

  test('when seconds come without a transcription model, or the voice model is unknown, then 400', async () => {
    expect((await post({ audio_seconds: 5 })).body.error).toBe('Укажите transcription_model для audio_seconds');
    expect((await post({ speech_characters: 5 })).body.error).toBe('Укажите speech_model для speech_characters');
    const unknown = await post({ transcription_model: 'no-such-model', audio_seconds: 5 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('Неизвестная модель: no-such-model');
  });

  test('when nothing is said of voice or mode, then they are empty and cost nothing', async () => {
    const res = await post({});
    expect(res.body).toMatchObject({
      mode: null,
      audio_seconds: 0,
      transcription_cost: '0.000000000000',
      speech_cost: '0.000000000000',
    });
  });
});

describe('POST /api/bot/messages: message.recorded', () => {
  test('when messages are recorded, then each is published exactly once with its data', async () => {
    const published = (id: number) =>
      h.service.deps.bus.waitFor(
        'published',
        (e) => e.type === 'message.recorded' && (e.data as MessageRecordedData).message_id === id,
      );
    const first = await post({ input_tokens: 100, output_tokens: 200, bot_response: 'Ответ' });
    const second = await post({ status: 'error', error_message: 'Ошибка' });
    const [event] = await Promise.all([published(first.body.id), published(second.body.id)]);
    expect(event.data).toEqual({
      message_id: first.body.id,
      user_id: userId,
      telegram_id: telegramId,
      username: expect.any(String),
      user_name: expect.stringMatching(/^@/),
      model: modelName,
      status: 'success',
      input_tokens: 100,
      output_tokens: 200,
      input_cost: first.body.input_cost,
      output_cost: first.body.output_cost,
      total_cost: first.body.total_cost,
      cost: first.body.cost,
      user_message: 'Вопрос',
      bot_response: 'Ответ',
      error_message: null,
      image_path: null,
      image_count: 0,
      hold_id: null,
      created_at: first.body.created_at,
    });
    expect(await recordedEvents(first.body.id)).toHaveLength(1);
    expect(await recordedEvents(second.body.id)).toHaveLength(1);
  });

  test('when the Idempotency-Key is not printable ASCII, then 400', async () => {
    const res = await post({}, { 'idempotency-key': 'x'.repeat(201) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_idempotency_key');
  });

  test('when the bot retries with the same Idempotency-Key, then one message and one event', async () => {
    const key = `retry-${nextNumber()}`;
    const first = await post({ input_tokens: 5 }, { 'idempotency-key': key });
    const again = await post({ input_tokens: 5 }, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(await recordedEvents(first.body.id)).toHaveLength(1);
  });
});

describe('POST /api/bot/messages with an image (multipart)', () => {
  const jpeg = (size = 64) => {
    const data = Buffer.alloc(size, 0x11);
    data.set([0xff, 0xd8, 0xff, 0xe0]);
    return data;
  };
  const png = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)]);
  const webp = () =>
    Buffer.concat([Buffer.from('RIFF'), Buffer.from([40, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(32, 2)]);
  const gif = () => Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32, 3)]);

  async function postImage(image: Buffer, filename = 'photo.jpg', type = 'image/jpeg') {
    const form = new FormData();
    form.set('telegram_id', String(telegramId));
    form.set('model', modelName);
    form.set('user_message', 'Что на фото?');
    form.set('bot_response', 'Кот');
    form.set('input_tokens', '1000');
    form.set('output_tokens', '10');
    form.set('image', new Blob([new Uint8Array(image)], { type }), filename);
    const res = await fetch(`${h.url}/api/bot/messages`, { method: 'POST', headers: h.bot, body: form });
    return { status: res.status, body: (await res.json()) as HistoryMessage & { code: string; error: string } };
  }

  test.each([
    ['JPEG', jpeg(), 'image/jpeg'],
    ['PNG', png(), 'image/png'],
    ['WebP', webp(), 'image/webp'],
  ])('when the image is a %s, then it is stored and served back at image_path', async (_kind, image, type) => {
    const res = await postImage(image, 'upload.bin', 'application/octet-stream');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ user_message: 'Что на фото?', input_tokens: 1000, output_tokens: 10 });
    expect(res.body.image_path).toMatch(/^\/api\/media\/[a-f0-9]{32}$/);

    const served = await fetch(`${h.url}${res.body.image_path}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe(type);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
  });

  test('when the file is a GIF, or text named .jpg, then 415 and nothing is recorded', async () => {
    const before = await h.get<{ total: number }>(`/api/admin/history?userId=${userId}`);
    for (const image of [gif(), Buffer.from('just text, not a picture')]) {
      const res = await postImage(image);
      expect(res.status).toBe(415);
      expect(res.body).toEqual({
        code: 'unsupported_image_type',
        error: 'Изображение должно быть в формате JPEG, PNG или WebP',
      });
    }
    expect((await h.get<{ total: number }>(`/api/admin/history?userId=${userId}`)).body.total).toBe(before.body.total);
  });

  test('when the image is exactly 10 MB, then it is accepted; one byte more, then 413', async () => {
    const limit = 10 * 1024 * 1024;
    expect((await postImage(jpeg(limit))).status).toBe(201);
    const tooBig = await postImage(jpeg(limit + 1));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toBe('Изображение должно быть не больше 10 МБ');
  });

  test('when the multipart fields are invalid, then 400 like JSON', async () => {
    const form = new FormData();
    form.set('telegram_id', String(telegramId));
    form.set('model', modelName);
    form.set('input_tokens', 'many');
    form.set('output_tokens', '1');
    const res = await fetch(`${h.url}/api/bot/messages`, { method: 'POST', headers: h.bot, body: form });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(
      'input_tokens должен быть целым числом от 0 до 1 000 000 000',
    );
  });

  test('when the file comes under another name than image, or the body is not real multipart, then 400', async () => {
    const form = new FormData();
    form.set('telegram_id', String(telegramId));
    form.set('document', new Blob([new Uint8Array(png())], { type: 'image/png' }), 'a.png');
    const wrongField = await fetch(`${h.url}/api/bot/messages`, { method: 'POST', headers: h.bot, body: form });
    expect(wrongField.status).toBe(400);
    expect(((await wrongField.json()) as { code: string }).code).toBe('unexpected_file');

    const noBoundary = await fetch(`${h.url}/api/bot/messages`, {
      method: 'POST',
      headers: { ...h.bot, 'content-type': 'multipart/form-data' },
      body: 'x',
    });
    expect(noBoundary.status).toBe(400);
    expect(((await noBoundary.json()) as { code: string }).code).toBe('invalid_multipart');
  });

  test('when the media id is unknown or malformed, then 404', async () => {
    expect((await fetch(`${h.url}/api/media/${'0'.repeat(32)}`)).status).toBe(404);
    expect((await fetch(`${h.url}/api/media/../../etc`)).status).toBe(404);
  });
});
