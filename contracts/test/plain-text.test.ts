import { describe, expect, test } from '@jest/globals';
import { toPlainText } from '../src/telegram-html';

describe('toPlainText: the model’s Markdown as the admin history’s «Ответ бота» cell shows it', () => {
  test('marks are gone, the words and the characters they hid stay', () => {
    expect(toPlainText('**Париж** — столица _Франции_.\n\n`x < 3 && y > "2"`')).toBe(
      'Париж — столица Франции.\n\nx < 3 && y > "2"',
    );
  });

  test('a heading and a list read as their text', () => {
    expect(toPlainText('## Итог\n- первое\n- второе')).not.toMatch(/[#*`]|<\/?\w/);
  });
});
