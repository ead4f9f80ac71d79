import { describe, expect, test } from '@jest/globals';
import { AppError, isWellFormedPath, MAX_JSON_DEPTH, parseJsonBody } from '../src';

const JSON_TYPE = 'application/json';
const refusal = (body: Buffer, contentType = JSON_TYPE) => {
  try {
    parseJsonBody(body, contentType);
  } catch (err) {
    return err instanceof AppError ? { status: err.status, code: err.code } : err;
  }
  return undefined;
};

describe('parseJsonBody: the one reading of a JSON body', () => {
  test('UTF-8 with or without a BOM reads the same; an empty body is {}', () => {
    const text = JSON.stringify({ email: 'кот@example.ru' });
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    expect(parseJsonBody(bom, JSON_TYPE)).toEqual(parseJsonBody(Buffer.from(text), 'application/json; charset=UTF-8'));
    expect(parseJsonBody(Buffer.alloc(0), JSON_TYPE)).toEqual({});
  });

  test('anything but UTF-8 is 415: UTF-16 and UTF-32 with or without BOM, bad bytes, another charset', () => {
    const text = '{"a":"б"}';
    const unsupported = { status: 415, code: 'unsupported_encoding' };
    expect(refusal(Buffer.from(`\ufeff${text}`, 'utf16le'))).toEqual(unsupported);
    expect(refusal(Buffer.from(text, 'utf16le'))).toEqual(unsupported);
    expect(refusal(Buffer.from(`\ufeff${text}`, 'utf16le').swap16())).toEqual(unsupported);
    expect(refusal(Buffer.from([0x00, 0x00, 0x00, 0x7b, 0x00, 0x00, 0x00, 0x7d]))).toEqual(unsupported);
    expect(refusal(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))).toEqual(unsupported);
    expect(refusal(Buffer.from(text), 'application/json; charset=koi8-r')).toEqual(unsupported);
  });

  test(`nesting deeper than ${MAX_JSON_DEPTH} is 400 before parsing; brackets inside strings do not count`, () => {
    const deep = (levels: number) => Buffer.from('['.repeat(levels) + ']'.repeat(levels));
    expect(parseJsonBody(deep(MAX_JSON_DEPTH), JSON_TYPE)).toBeInstanceOf(Array);
    expect(refusal(deep(MAX_JSON_DEPTH + 1))).toEqual({ status: 400, code: 'json_too_deep' });
    const text = { note: '[{'.repeat(5000), quoted: '\\"[[[' };
    expect(parseJsonBody(Buffer.from(JSON.stringify(text)), JSON_TYPE)).toEqual(text);
  });

  test('broken JSON or a bare value at the top is 400 invalid_json', () => {
    for (const body of ['{"a": ', '"text"', '42', 'null']) {
      expect(refusal(Buffer.from(body))).toEqual({ status: 400, code: 'invalid_json' });
    }
  });
});

describe('isWellFormedPath', () => {
  test('a path whose escapes all decode is fine; %ZZ, a cut-off escape or an encoded lone surrogate is not', () => {
    expect(isWellFormedPath('/api/articles/%D0%BA%D0%BE%D1%82')).toBe(true);
    for (const path of ['/api/articles/%ZZ', '/a/%E0%A4%A', '/a/%ED%A0%80', '/a/%']) {
      expect(isWellFormedPath(path)).toBe(false);
    }
  });
});
