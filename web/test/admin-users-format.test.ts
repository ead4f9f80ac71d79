import { describe, expect, test } from '@jest/globals';

import { personName } from '@gpt/contracts';

import { formatCredits, tariffLabel, userTitle, utmLabel } from '../src/features/admin-users/format';

describe('admin users: what the table and dialogs show', () => {
  test("an empty UTM source (the API's 'organic') reads «Без метки» and an empty tariff 'Не указан'", () => {
    expect([utmLabel(null), utmLabel(''), utmLabel('organic'), utmLabel('vk')]).toEqual([
      'Без метки',
      'Без метки',
      'Без метки',
      'vk',
    ]);
    expect([tariffLabel(null), tariffLabel(''), tariffLabel('Premium')]).toEqual(['Не указан', 'Не указан', 'Premium']);
  });

  test('credits are rounded', () => {
    expect(formatCredits(1234.6).replace(/\s/g, ' ')).toBe('1 235');
  });

  test('a person is named one way everywhere: username, else first and last name, else Telegram id', () => {
    const names = { username: 'ivan', first_name: 'Иван', last_name: 'Петров', telegram_id: 42 };
    expect(personName(names)).toBe('@ivan');
    expect(personName({ ...names, username: null })).toBe('Иван Петров');
    expect(personName({ ...names, username: null, last_name: null })).toBe('Иван');
    expect(personName({ username: null, first_name: null, last_name: null, telegram_id: 42 })).toBe('Telegram ID 42');
    expect(personName({ username: null, first_name: null, last_name: null, telegram_id: null })).toBe('');
  });

  test('a user is named by e-mail, else by the person’s name, else by id', () => {
    const names = { username: 'ivan', first_name: 'Иван', last_name: 'Петров' };
    expect(userTitle({ id: 7, email: 'a@b.ru', ...names })).toBe('a@b.ru');
    expect(userTitle({ id: 7, email: null, ...names })).toBe('@ivan');
    expect(userTitle({ id: 7, email: null, username: null, first_name: null, last_name: null })).toBe('#7');
  });
});
