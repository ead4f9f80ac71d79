import { relative } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { callbackData, encodeCallback, parseCallback } from '../src/telegram/callbacks';
import { everyCallback } from './support/callbacks';
import { linesOf, sourceFiles, SRC } from './support/source-files';

const CALLBACKS_MODULE = 'telegram/callbacks.ts';

describe('callback data', () => {
  test.each(everyCallback())('when %o is made into data and read back, then it is the same request', (callback) => {
    const data = encodeCallback(callback);
    expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
    expect(parseCallback(data)).toEqual(callback);
  });

  test('when the data is not one of our buttons, then it is not read as one', () => {
    for (const data of ['', 'menu:', 'menu:admin', 'model:', 'model:x', 'buy:topup:-1', 'buy:tariff:1:2', 'other']) {
      expect(parseCallback(data)).toBeNull();
    }
  });

  test('every kind is read back as itself and no other: no two kinds share their data', () => {
    const data = everyCallback().map(encodeCallback);
    expect(new Set(data).size).toBe(data.length);
  });

  test('the builders spell the buttons the bot has always sent', () => {
    expect([
      callbackData('buy'),
      callbackData('buyTariff', { id: 3 }),
      callbackData('topUp', { roubles: 100 }),
      callbackData('chooseModel', { id: 5 }),
    ]).toEqual(['menu:buy', 'buy:tariff:3', 'buy:topup:100', 'model:5']);
  });

  test('no callback string is spelled outside the callbacks module', () => {
    const literal = /['"`](?:menu|model|buy|stars|pay):/;
    const files = sourceFiles(SRC).filter((file) => relative(SRC, file) !== CALLBACKS_MODULE);
    const offenders = linesOf(files, (line) => literal.test(line));
    expect(offenders).toEqual([]);
  });
});
