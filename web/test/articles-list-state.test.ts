import { describe, expect, test } from '@jest/globals';
import { ArticleInput, CategoryInput, fieldErrors, TagInput } from '@gpt/contracts';
import { readListState, toParams } from '../src/features/articles/list-state';
import { slugify } from '../src/features/admin-articles/slugify';

const read = (query: string) => readListState(new URLSearchParams(query));

describe('articles list state in the URL', () => {
  test('one of search, category and tag at a time: search wins, then category', () => {
    expect(read('q=gpt&category=guides&tag=ai&page=3')).toEqual({ q: 'gpt', category: '', tag: '', page: 3 });
    expect(read('category=guides&tag=ai')).toEqual({ q: '', category: 'guides', tag: '', page: 1 });
    expect(read('tag=ai')).toEqual({ q: '', category: '', tag: 'ai', page: 1 });
  });

  test('a page that is not a whole number above 1 is page 1; blank search is no search', () => {
    for (const page of ['0', '-2', 'abc', '1.5', '']) expect(read(`page=${page}`).page).toBe(1);
    expect(read('q=%20%20&tag=ai')).toEqual({ q: '', category: '', tag: 'ai', page: 1 });
  });

  test('the URL of a state leaves out what is empty and page 1', () => {
    expect(toParams({ q: '', category: '', tag: '', page: 1 }).toString()).toBe('');
    expect(toParams({ q: 'модели', category: '', tag: '', page: 2 }).toString()).toBe(
      'q=%D0%BC%D0%BE%D0%B4%D0%B5%D0%BB%D0%B8&page=2',
    );
    expect(toParams({ q: '', category: 'guides', tag: '', page: 1 }).toString()).toBe('category=guides');
  });
});

describe('admin article form rules', () => {
  test('slugify transliterates Russian titles into latin, digits and single hyphens', () => {
    expect(slugify('Как пользоваться GPT: руководство для начинающих')).toBe(
      'kak-polzovatsya-gpt-rukovodstvo-dlya-nachinayushchikh',
    );
    expect(slugify('  Тренды ИИ — 2025!  ')).toBe('trendy-ii-2025');
    expect(slugify('Объём и съёмка')).toBe('obem-i-semka');
  });

  test('title, slug and content are required; the slug rule and reading time ≥ 1 hold, each under its field', () => {
    // The forms show these messages under their fields (useContractForm).
    const valid = { title: 'Т', slug: 'gpt-guide', content: '<p>x</p>', reading_time: null };
    expect(fieldErrors(ArticleInput, valid)).toEqual({});
    expect(fieldErrors(ArticleInput, { ...valid, title: ' ', content: '' })).toEqual({
      title: 'Заполните обязательные поля',
      content: 'Заполните обязательные поля',
    });
    expect(fieldErrors(ArticleInput, { ...valid, slug: 'GPT Guide' })).toEqual({
      slug: 'Slug может содержать только строчные латинские буквы, цифры и дефисы',
    });
    expect(fieldErrors(ArticleInput, { ...valid, reading_time: 0 })).toEqual({
      reading_time: 'Время чтения должно быть не меньше 1 минуты',
    });
    expect(fieldErrors(ArticleInput, { ...valid, reading_time: 3 })).toEqual({});
    expect(fieldErrors(CategoryInput, { name: 'Имя', slug: '' })).toEqual({ slug: 'Заполните обязательные поля' });
    expect(fieldErrors(TagInput, { name: '', slug: 'ai' })).toEqual({ name: 'Заполните обязательные поля' });
  });
});
