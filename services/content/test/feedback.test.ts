import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type ContentClient, type ContentService, contentClient, startContent } from './support';

let content: ContentService;
let api: ContentClient;

beforeAll(async () => {
  content = await startContent();
  api = contentClient(content);
});
afterAll(() => content.stop());

describe('POST /api/feedback', () => {
  test('when all three fields are filled, then 201 and stored, trimmed', async () => {
    const subject = `Вопрос об оплате ${Date.now()}`;
    const res = await api.call('POST', '/api/feedback', {
      body: { telegram: ' @ivan ', subject, message: 'Не пришёл чек на почту' },
    });
    expect(res).toEqual({ status: 201, body: { success: true, message: 'Спасибо! Ваше сообщение отправлено.' } });
    const stored = await content.deps.db
      .selectFrom('feedback')
      .select(['telegram', 'message'])
      .where('subject', '=', subject)
      .execute();
    expect(stored).toEqual([{ telegram: '@ivan', message: 'Не пришёл чек на почту' }]);
  });

  test('when fields are missing or blank, then 400 listing each with its Russian message', async () => {
    const res = await api.call<{ error: string; details: { path: string; message: string }[] }>(
      'POST',
      '/api/feedback',
      { body: { telegram: '', subject: '   ' } },
    );
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(
      expect.arrayContaining([
        { path: 'telegram', message: 'Укажите Telegram для ответа' },
        { path: 'subject', message: 'Укажите тему' },
        { path: 'message', message: 'Напишите сообщение' },
      ]),
    );
  });

  test('when a field is too long or not text, then 400', async () => {
    const long = await api.call('POST', '/api/feedback', {
      body: { telegram: '@a', subject: 'Тема', message: 'я'.repeat(5001) },
    });
    expect(long).toMatchObject({ status: 400, body: { error: 'Не более 5000 символов' } });
    const wrongType = await api.call('POST', '/api/feedback', {
      body: { telegram: 42, subject: 'Тема', message: 'x' },
    });
    expect(wrongType.status).toBe(400);
  });

  test('when the body is not JSON, then 400 "Некорректный JSON в теле запроса"', async () => {
    const res = await fetch(`${content.url}/api/feedback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"telegram":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'Некорректный JSON в теле запроса', code: 'invalid_json' });
  });
});
