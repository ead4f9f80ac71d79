import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { ArticlesListResponse, EventType } from '@gpt/contracts';
import { createEvent, publishRaw } from '@gpt/kit/testing';
import { type ContentClient, type ContentService, contentClient, startContent } from './support';

const AUTHOR_ID = 4242;

let content: ContentService;
let api: ContentClient;

beforeAll(async () => {
  content = await startContent();
  api = contentClient(content, AUTHOR_ID);
});
afterAll(async () => {
  await content.stop();
});

/** Publishes an auth event on the service's exchange, as auth would, and waits until content handled it. */
async function fromAuth(type: EventType, data: Record<string, unknown>) {
  const event = createEvent(type, 'auth', data as never);
  const handled = content.deps.bus.waitFor('acked', (acked) => acked.id === event.id);
  await publishRaw(content.deps.config.AMQP_EXCHANGE, type, event);
  await handled;
}

const profile = (
  version: number,
  names: { first_name: string | null; last_name: string | null; username: string | null },
) => ({
  user_id: AUTHOR_ID,
  email: 'author@example.com',
  role: 'admin',
  ...names,
  telegram_id: null,
  telegram_username: null,
  telegram_email: null,
  utm_source: null,
  created_at: new Date().toISOString(),
  version,
});

const authorOfCard = async (slug: string) => {
  const { body } = await api.get<ArticlesListResponse>('/api/articles?limit=50');
  const card = body.articles.find((article) => article.slug === slug)!;
  return [card.author_first_name, card.author_last_name, card.author_username];
};

describe('author names from auth’s user events', () => {
  test('registered → names on the cards; an older update is ignored; a newer one applies; deleted → no names', async () => {
    const article = await api.createArticle();
    expect(await authorOfCard(article.slug)).toEqual([null, null, null]);

    await fromAuth('user.registered', {
      ...profile(2, { first_name: 'Иван', last_name: 'Петров', username: 'ivan' }),
      source: 'web',
    });
    expect(await authorOfCard(article.slug)).toEqual(['Иван', 'Петров', 'ivan']);

    const updatedAt = new Date().toISOString();
    await fromAuth('user.updated', {
      ...profile(1, { first_name: 'Старое', last_name: 'Имя', username: 'old' }),
      updated_at: updatedAt,
    });
    expect(await authorOfCard(article.slug)).toEqual(['Иван', 'Петров', 'ivan']);

    await fromAuth('user.updated', {
      ...profile(3, { first_name: 'Иван', last_name: 'Сидоров', username: 'ivan_s' }),
      updated_at: updatedAt,
    });
    expect(await authorOfCard(article.slug)).toEqual(['Иван', 'Сидоров', 'ivan_s']);

    await fromAuth('user.deleted', {
      user_id: AUTHOR_ID,
      email: 'author@example.com',
      deleted_at: updatedAt,
      version: 4,
    });
    expect(await authorOfCard(article.slug)).toEqual([null, null, null]);

    await fromAuth('user.updated', {
      ...profile(3, { first_name: 'Иван', last_name: 'Сидоров', username: 'ivan_s' }),
      updated_at: updatedAt,
    });
    expect(await authorOfCard(article.slug)).toEqual([null, null, null]);
  });
});
