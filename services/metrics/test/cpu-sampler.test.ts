import { describe, expect, jest, test } from '@jest/globals';
import { CpuSampler, type CpuTimes } from '../src/host/cpu-sampler';

/** CPU times since boot as a script: each read returns the next reading. */
function readings(...times: CpuTimes[]) {
  let i = 0;
  return () => times[Math.min(i++, times.length - 1)] as CpuTimes;
}

describe('CpuSampler', () => {
  test('reports the busy share of the last window, not since boot', () => {
    // Since boot: 10 % busy. In the last window: 900 of 1000 ms busy.
    const sampler = new CpuSampler(60_000, readings({ busy: 1_000, total: 10_000 }, { busy: 1_900, total: 11_000 }));
    const release = sampler.hold();
    sampler.sample();
    expect(sampler.percent()).toBe(90);
    release();
  });

  test('moves on with each reading', () => {
    const sampler = new CpuSampler(
      60_000,
      readings({ busy: 0, total: 0 }, { busy: 500, total: 1_000 }, { busy: 600, total: 2_000 }),
    );
    const release = sampler.hold();
    sampler.sample();
    expect(sampler.percent()).toBe(50);
    sampler.sample();
    expect(sampler.percent()).toBe(10);
    release();
  });

  test('before the first window closes, measures from the first reading to now', () => {
    const sampler = new CpuSampler(60_000, readings({ busy: 100, total: 1_000 }, { busy: 350, total: 2_000 }));
    const release = sampler.hold();
    expect(sampler.percent()).toBe(25);
    release();
  });

  test('samples in the background while held and stops when the last holder lets go', () => {
    jest.useFakeTimers();
    try {
      let reads = 0;
      const sampler = new CpuSampler(2_000, () => ({ busy: ++reads, total: reads * 2 }));
      const first = sampler.hold();
      const second = sampler.hold();
      expect(reads).toBe(1);
      jest.advanceTimersByTime(6_000);
      expect(reads).toBe(4);
      first();
      first(); // a second release by the same holder changes nothing
      jest.advanceTimersByTime(2_000);
      expect(reads).toBe(5);
      second();
      jest.advanceTimersByTime(10_000);
      expect(reads).toBe(5);
    } finally {
      jest.useRealTimers();
    }
  });
});
