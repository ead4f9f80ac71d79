import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { callbacks, encodeCallback, parseCallback, type Callback } from '../src/telegram/callbacks';

const SRC = join(import.meta.dirname, '../src');
const CALLBACKS_MODULE = 'telegram/callbacks.ts';

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );

describe('callback data', () => {
  test.each<Callback>([
    { kind: 'models' },
    { kind: 'balance' },
    { kind: 'buy' },
    { kind: 'imageUsage' },
    { kind: 'link' },
    { kind: 'chooseModel', id: 7 },
    { kind: 'chooseTopUp', roubles: 500 },
    { kind: 'chooseTariff', id: 4 },
    { kind: 'topUp', roubles: 300 },
    { kind: 'buyTariff', id: 2 },
    { kind: 'starsTopUp', roubles: 1000 },
    { kind: 'starsTariff', id: 3 },
  ])('when %o is made into data and read back, then it is the same request', (callback) => {
    const data = encodeCallback(callback);
    expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
    expect(parseCallback(data)).toEqual(callback);
  });

  test('when the data is not one of our buttons, then it is not read as one', () => {
    for (const data of ['', 'menu:', 'menu:admin', 'model:', 'model:x', 'buy:topup:-1', 'buy:tariff:1:2', 'other']) {
      expect(parseCallback(data)).toBeNull();
    }
  });

  test('the builders spell the buttons the bot has always sent', () => {
    expect([callbacks.menu('buy'), callbacks.buyTariff(3), callbacks.topUp(100), callbacks.chooseModel(5)]).toEqual([
      'menu:buy',
      'buy:tariff:3',
      'buy:topup:100',
      'model:5',
    ]);
  });

  test('no callback string is spelled outside the callbacks module', () => {
    const literal = /['"`](?:menu|model|buy|stars|pay):/;
    const offenders = sourceFiles(SRC)
      .filter((file) => relative(SRC, file) !== CALLBACKS_MODULE)
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, index) => ({ where: `${relative(SRC, file)}:${index + 1}`, line }))
          .filter(({ line }) => literal.test(line)),
      );
    expect(offenders).toEqual([]);
  });
});
