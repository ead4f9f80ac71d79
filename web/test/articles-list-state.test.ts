import { describe, expect, test } from '@jest/globals';
import { readListState, toParams } from '../src/features/articles/list-state';
import { slugify } from '../src/features/admin-articles/slugify';
import { articleProblem, taxonomyProblem } from '../src/features/admin-articles/validation';

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

  test('title, slug and content are required; the slug rule and reading time ≥ 1 hold', () => {
    const valid = { title: 'Т', slug: 'gpt-guide', content: '<p>x</p>', reading_time: '' };
    expect(articleProblem(valid)).toBeNull();
    expect(articleProblem({ ...valid, content: '' })).toBe('Заполните обязательные поля');
    expect(articleProblem({ ...valid, title: ' ' })).toBe('Заполните обязательные поля');
    expect(articleProblem({ ...valid, slug: 'GPT Guide' })).toBe(
      'Slug может содержать только строчные латинские буквы, цифры и дефисы',
    );
    expect(articleProblem({ ...valid, reading_time: '0' })).toBe('Время чтения — целое число минут, не меньше 1');
    expect(articleProblem({ ...valid, reading_time: '3' })).toBeNull();
    expect(taxonomyProblem({ name: 'Имя', slug: '' })).toBe('Заполните обязательные поля');
  });
});
