import type { KeyValue } from '@gpt/kit';
import type { ServiceName } from './route-table';
import { withTimeout } from './timeout';

const CHECK_TIMEOUT_MS = 1000;

export interface HealthReport {
  status: 'ok' | 'unavailable';
  services: Record<string, string>;
}

/**
 * Asks every service's `/readyz` at once (each within a second) and the gateway's own Redis;
 * ok only when all of them are.
 */
export function createHealthCheck(options: { targets: Readonly<Record<ServiceName, string>>; kv: KeyValue }) {
  const { targets, kv } = options;
  const checks: Array<[string, () => Promise<void>]> = Object.entries(targets).map(([service, base]) => [
    service,
    async () => {
      const res = await fetch(new URL('/readyz', base), { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`readyz answered ${res.status}`);
    },
  ]);
  if (kv.kind === 'redis') checks.push(['redis', () => withTimeout(kv.ping(), CHECK_TIMEOUT_MS)]);

  return async (): Promise<HealthReport> => {
    const results = await Promise.all(
      checks.map(async ([name, check]) => {
        try {
          await check();
          return [name, 'ok'] as const;
        } catch (err) {
          return [name, describe(err)] as const;
        }
      }),
    );
    const services = Object.fromEntries(results);
    return { status: results.every(([, state]) => state === 'ok') ? 'ok' : 'unavailable', services };
  };
}

/**
 * The gateway's own readiness (`/readyz`, what a load balancer or Kubernetes asks): its Redis, where
 * limits and token versions live. A service that is down does not take the gateway out of rotation:
 * its routes answer 503 on their own.
 */
export function createReadiness(kv: KeyValue) {
  return () =>
    withTimeout(kv.ping(), CHECK_TIMEOUT_MS).then(
      () => true,
      () => false,
    );
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError') return `no answer in ${CHECK_TIMEOUT_MS} ms`;
    const cause = (err.cause as NodeJS.ErrnoException | undefined)?.code;
    return cause ? `unreachable (${cause})` : err.message;
  }
  return 'unavailable';
}
