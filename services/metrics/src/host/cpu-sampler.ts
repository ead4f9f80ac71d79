import os from 'node:os';

/** Busy and total CPU time of all cores since boot, in ms. */
export interface CpuTimes {
  busy: number;
  total: number;
}

export function readCpuTimes(): CpuTimes {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    const sum = times.user + times.nice + times.sys + times.irq + times.idle;
    total += sum;
    busy += sum - times.idle;
  }
  return { busy, total };
}

function percentBetween(earlier: CpuTimes, later: CpuTimes): number {
  const total = later.total - earlier.total;
  if (total <= 0) return 0;
  const percent = ((later.busy - earlier.busy) / total) * 100;
  return Math.round(Math.min(100, Math.max(0, percent)) * 100) / 100;
}

/**
 * CPU use of the host over a short recent window, not since boot: a background timer reads the
 * cores' times every `intervalMs`, and the answer is the busy share between the last two readings.
 * Several services of one process share one sampler; it runs while anyone holds it.
 */
export class CpuSampler {
  private previous: CpuTimes | null = null;
  private latest: CpuTimes | null = null;
  private timer: NodeJS.Timeout | null = null;
  private holders = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly read: () => CpuTimes = readCpuTimes,
  ) {}

  /** Starts sampling (if not yet running); call the returned function to let go. */
  hold(): () => void {
    this.holders += 1;
    if (!this.timer) {
      this.latest = this.read();
      this.timer = setInterval(() => this.sample(), this.intervalMs);
      this.timer.unref();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders -= 1;
      if (this.holders > 0 || !this.timer) return;
      clearInterval(this.timer);
      this.timer = null;
      this.previous = null;
      this.latest = null;
    };
  }

  /** Takes a reading now (the timer calls this). */
  sample(): void {
    this.previous = this.latest;
    this.latest = this.read();
  }

  /** Percent busy over the last window; before the first full window, since the first reading. */
  percent(): number {
    if (this.previous && this.latest) return percentBetween(this.previous, this.latest);
    const since = this.latest ?? this.read();
    return percentBetween(since, this.read());
  }
}
