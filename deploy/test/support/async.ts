import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `check` until it stops throwing; the last failure is the test's failure. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 60_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(everyMs);
    }
  }
}

/** Runs `work(i)` for i in [0, count) with at most `concurrency` at a time. */
export async function inPool(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
