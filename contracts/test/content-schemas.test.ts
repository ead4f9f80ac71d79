import { describe, expect, test } from '@jest/globals';
import {
  ArticleInput,
  BotMessageRequest,
  CategoryInput,
  FeedbackRequest,
  SysValCreateRequest,
  SysValUpdateRequest,
} from '../src/index';

const firstMessages = (result: { error?: { issues: { message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => issue.message);

describe('ArticleInput', () => {
  test('when title, slug or content is missing, then "Заполните обязательные поля"', () => {
    const result = ArticleInput.safeParse({ title: ' ', content: '' });
    expect(new Set(firstMessages(result))).toEqual(new Set(['Заполните обязательные поля']));
    expect(result.error?.issues.map((issue) => issue.path[0]).sort()).toEqual(['content', 'slug', 'title']);
  });

  test('when the slug has capitals or spaces, or reading_time is below 1, then refused', () => {
    expect(ArticleInput.safeParse({ title: 'T', slug: 'GPT guide', content: '<p>x</p>' }).success).toBe(false);
    expect(ArticleInput.safeParse({ title: 'T', slug: 'gpt-guide', content: 'x', reading_time: 0 }).success).toBe(
      false,
    );
  });

  test('when optional fields are omitted or blank, then defaults: draft, nulls, empty id lists', () => {
    expect(
      ArticleInput.parse({ title: ' ИИ ', slug: 'ai-trends', content: '<p>Текст</p>', excerpt: '', og_image: '' }),
    ).toEqual({
      title: 'ИИ',
      slug: 'ai-trends',
      content: '<p>Текст</p>',
      excerpt: null,
      meta_title: null,
      meta_description: null,
      meta_keywords: null,
      og_title: null,
      og_description: null,
      og_image: null,
      canonical_url: null,
      status: 'draft',
      featured_image: null,
      reading_time: null,
      published_at: null,
      category_ids: [],
      tag_ids: [],
    });
  });

  test('when a link field holds a javascript: URL, then it is refused', () => {
    expect(
      ArticleInput.safeParse({ title: 'T', slug: 't', content: 'x', featured_image: 'javascript:alert(1)' }).success,
    ).toBe(false);
  });
});

describe('CategoryInput, FeedbackRequest, SysVal bodies', () => {
  test('when a category lacks name and slug, then "Заполните обязательные поля"', () => {
    expect(new Set(firstMessages(CategoryInput.safeParse({})))).toEqual(new Set(['Заполните обязательные поля']));
  });

  test('when the contact form is empty, then each of the three fields is required', () => {
    const result = FeedbackRequest.safeParse({ telegram: '', subject: ' ' });
    expect(result.error?.issues.map((issue) => issue.path[0]).sort()).toEqual(['message', 'subject', 'telegram']);
  });

  test('when a setting is created without key or value, then "Заполните все поля"; the edit body is the value only', () => {
    expect(new Set(firstMessages(SysValCreateRequest.safeParse({ key: '', value: '' })))).toEqual(
      new Set(['Заполните все поля']),
    );
    expect(SysValCreateRequest.safeParse({ key: 'max tokens', value: '1' }).success).toBe(false);
    expect(SysValUpdateRequest.parse({ value: ' 4000 ', key: 'ignored' })).toEqual({ value: '4000' });
  });
});

describe('BotMessageRequest', () => {
  test('when fields come as multipart strings, then numbers are coerced and defaults applied', () => {
    expect(
      BotMessageRequest.parse({ telegram_id: '123456789', model: 'gpt-4o', input_tokens: '10', output_tokens: '0' }),
    ).toEqual({
      telegram_id: 123456789,
      model: 'gpt-4o',
      user_message: '',
      bot_response: null,
      input_tokens: 10,
      output_tokens: 0,
      status: 'success',
      error_message: null,
      image_count: 0,
      mode: null,
      transcription_model: null,
      audio_seconds: 0,
      speech_model: null,
      door: 'telegram',
      speech_characters: 0,
    });
    const hold_id = '7d8f2a52-51a4-4a0a-9a57-3f0d2c5e8b11';
    expect(
      BotMessageRequest.parse({
        user_id: '5',
        model: 'gpt-image-1',
        input_tokens: '0',
        output_tokens: '0',
        image_count: '2',
        hold_id,
      }),
    ).toMatchObject({ image_count: 2, hold_id });
    expect(
      BotMessageRequest.safeParse({ user_id: 1, model: 'm', input_tokens: 1, output_tokens: 1, hold_id: 'h1' }).success,
    ).toBe(false);
  });

  test('when neither telegram_id nor user_id is given, or tokens are negative, then refused', () => {
    expect(BotMessageRequest.safeParse({ model: 'gpt-4o', input_tokens: 1, output_tokens: 1 }).success).toBe(false);
    expect(
      BotMessageRequest.safeParse({ user_id: 1, model: 'gpt-4o', input_tokens: -1, output_tokens: 1 }).success,
    ).toBe(false);
  });
});
