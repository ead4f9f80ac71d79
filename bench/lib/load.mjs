// Generating the load: autocannon runs for throughput, timed sequential requests for latency.
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

/**
 * One autocannon run at `target` ({ url, method, headers, body }) from this process: req/s, p50
 * and p99 (ms), the requests answered and how many failed (errors, timeouts, non-2xx). An answer
 * may take up to 30 s before it counts as failed (a login waits its turn for argon2id).
 */
export async function cannon(target, { connections, duration }) {
  const result = await autocannon({ ...target, connections, duration, timeout: 30, pipelining: 1 });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    failed: result.errors + result.timeouts + result.non2xx,
  };
}

/** Warms `target` up with `duration` s of the same load, its figures dropped; none at 0 (a smoke run's default). */
export async function warmUp(target, { connections, duration }) {
  if (duration > 0) await cannon(target, { connections, duration });
}

/** Sends `request()` `count` times, one after another; the time each took (ms) and the last answer. */
export async function sequential(count, request) {
  const times = [];
  let last;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    last = await request();
    times.push(performance.now() - started);
  }
  return { times, last };
}

/** A request whose answer is read whole; throws unless its status is `expect`. Returns the parsed body. */
export async function call(url, { method = 'GET', headers = {}, body, expect = 200 } = {}) {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== expect) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}
