import { describe, expect, test } from '@jest/globals';
import { answerCache, createKeyValue, createLogger } from '../src';

const logger = createLogger({ name: 'answer-cache-test', level: 'silent' });

/** A cache with a 50 ms max age over `kv`, and a maker that counts how often it was asked. */
function counted(kv: ReturnType<typeof createKeyValue>) {
  const cache = answerCache({ kv, channel: 'answer-cache-test:changed', logger, maxEntries: 10, maxAgeMs: 50 });
  let made = 0;
  const read = () => cache.get('tariffs', async () => ({ made: ++made }));
  return { cache, read, made: () => made };
}

const afterMaxAge = () => new Promise((resolve) => setTimeout(resolve, 120));

describe('answerCache without Redis (the embedded default: no other replica)', () => {
  test('when the max age has passed, then the answer is still the kept one; after changed(), it is made again', async () => {
    const { cache, read, made } = counted(createKeyValue({}));
    const first = await read();
    await afterMaxAge();
    expect(await read()).toBe(first);
    expect(made()).toBe(1);

    cache.changed();
    expect((await read()).value).toEqual({ made: 2 });
    await cache.close();
  });

  test('when a write runs in changing(), then the answer is made again after it, also when the write fails', async () => {
    const { cache, read } = counted(createKeyValue({}));
    await read();
    await cache.changing(async () => undefined);
    expect((await read()).value).toEqual({ made: 2 });
    await expect(
      cache.changing(async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect((await read()).value).toEqual({ made: 3 });
    await cache.close();
  });
});
