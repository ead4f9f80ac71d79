// The embedded default (`npm start` with no server URLs): the whole product in one process,
// on a fresh DATA_DIR. Measures its memory after start, `GET /api/articles` at --connections against
// the gateway's ceiling in the same run (the gateway in front of gateway.mjs's trivial JSON service,
// measured before and after; their mean), and its memory after that load. Targets: RSS ≤ 500 MB after
// start, req/s ≥ 0.5× the ceiling, RSS ≤ 700 MB after the load.
//
//   node bench/embedded.mjs [--duration 5] [--warmup 2] [--connections 50] [--json FILE] [--smoke]
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, mainOf, requireWebBuild } from './lib/bundle.mjs';
import { cannon, warmUp } from './lib/load.mjs';
import { benchArgs, targetVerdict } from './lib/options.mjs';
import { freePorts, waitForPort } from './lib/ports.mjs';
import { cpuMs, rssMb, withProcesses } from './lib/processes.mjs';
import { local, startEmbedded, startGateway } from './lib/product.mjs';
import { figure, writeFigures } from './lib/report.mjs';
import { columns } from './lib/stats.mjs';

const values = benchArgs(
  {
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
  },
  { duration: '1', warmup: '0' },
);
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const TARGET_RATIO = 0.5;
const TARGET_RSS_START_MB = 500;
const TARGET_RSS_LOAD_MB = 700;
/** gateway.mjs runs the trivial JSON service behind the ceiling's gateway (its `--upstream` role). */
const GATEWAY_BENCH = fileURLToPath(new URL('./gateway.mjs', import.meta.url));
const LIST = '/api/articles?page=1&limit=12';

requireWebBuild();
const bundles = await bundle('embedded', { embedded: 'deploy/src/embedded.ts', gateway: mainOf('gateway') });
const dataDir = await mkdtemp(path.join(tmpdir(), 'gpt-bench-embedded-'));
try {
  await withProcesses(async (group) => {
    const [port, upstreamPort] = await freePorts(2);
    const started = Date.now();
    const product = await startEmbedded(group, { bundle: bundles.embedded, port, dataDir });
    const startSeconds = (Date.now() - started) / 1000;
    const rssStart = rssMb(product.pid);

    group.node('upstream', GATEWAY_BENCH, { PORT: String(upstreamPort) }, ['--upstream']);
    await waitForPort(upstreamPort);
    const ceilingGateway = await startGateway(group, {
      script: bundles.gateway,
      upstreamOf: () => local(upstreamPort),
      env: { ACCESS_LOG: 'false' },
    });
    // Also the CPU time the product's process spends per request: steadier than req/s on a busy machine.
    const run = async (url) => {
      await warmUp({ url }, { connections: CONNECTIONS, duration: WARMUP });
      const cpuBefore = cpuMs(product.pid);
      const result = await cannon({ url }, { connections: CONNECTIONS, duration: DURATION });
      if (result.failed > 0) throw new Error(`${url}: ${result.failed} requests failed`);
      return { ...result, cpuPerRequest: (cpuMs(product.pid) - cpuBefore) / result.total };
    };
    const ceilingBefore = await run(ceilingGateway.url + LIST);
    const embedded = await run(local(port) + LIST);
    const ceilingAfter = await run(ceilingGateway.url + LIST);
    const rssLoad = rssMb(product.pid);
    const ceiling = (ceilingBefore.rps + ceilingAfter.rps) / 2;
    const ratio = embedded.rps / ceiling;

    const line = columns([
      ['embedded default (npm start), fresh DATA_DIR', 46],
      ['measured', -12],
      ['target', -16],
      ['ratio', -7],
      ['  verdict', 0],
    ]);
    // [name, measured, its unit, the target as said, the ratio the target is on, met]
    const rows = [
      [
        'RSS after start',
        rssStart,
        'MB',
        `≤ ${TARGET_RSS_START_MB} MB`,
        rssStart / TARGET_RSS_START_MB,
        rssStart <= TARGET_RSS_START_MB,
      ],
      [
        `GET /api/articles, ${CONNECTIONS} connections`,
        embedded.rps,
        'req/s',
        `≥ ${TARGET_RATIO}× ceiling`,
        ratio,
        ratio >= TARGET_RATIO,
      ],
      [
        'RSS after the load',
        rssLoad,
        'MB',
        `≤ ${TARGET_RSS_LOAD_MB} MB`,
        rssLoad / TARGET_RSS_LOAD_MB,
        rssLoad <= TARGET_RSS_LOAD_MB,
      ],
    ];
    console.log(
      `\nstarted in ${startSeconds.toFixed(1)} s; ceiling: the gateway in front of a trivial JSON service, ` +
        `${ceilingBefore.rps.toFixed(0)} req/s (p99 ${ceilingBefore.p99} ms) before and ${ceilingAfter.rps.toFixed(0)} ` +
        `(p99 ${ceilingAfter.p99} ms) after; embedded p50 ${embedded.p50} ms, p99 ${embedded.p99} ms, ` +
        `${(embedded.cpuPerRequest * 1000).toFixed(0)} µs of CPU per request; ` +
        `load average ${loadavg()[0].toFixed(1)}\n${line.header}`,
    );
    let met = true;
    const verdicts = rows.map(([name, measured, unit, target, onTarget, ok]) => {
      met &&= ok;
      const verdict = targetVerdict(ok).text;
      console.log(line([name, `${measured.toFixed(0)} ${unit}`, target, onTarget.toFixed(2), `  ${verdict}`]));
      return verdict;
    });
    const figures = [
      figure(
        'memory after start (RSS), fresh DATA_DIR',
        'MB',
        ['embedded', rssStart],
        ['target', TARGET_RSS_START_MB],
        `target ≤ ${TARGET_RSS_START_MB} MB: ${verdicts[0]}`,
      ),
      figure(
        `GET /api/articles, ${CONNECTIONS} connections: req/s vs the gateway's ceiling`,
        'req/s',
        ['embedded', embedded.rps],
        ['ceiling', ceiling],
        `p99 ${embedded.p99} ms, CPU ${(embedded.cpuPerRequest * 1000).toFixed(0)} µs per request; target ≥ ${TARGET_RATIO}×: ${verdicts[1]}`,
      ),
      figure(
        'memory after the load (RSS)',
        'MB',
        ['embedded', rssLoad],
        ['target', TARGET_RSS_LOAD_MB],
        `target ≤ ${TARGET_RSS_LOAD_MB} MB: ${verdicts[2]}`,
      ),
    ];
    const verdict = targetVerdict(met);
    console.log(
      `targets: RSS ≤ ${TARGET_RSS_START_MB} MB after start, ≥ ${TARGET_RATIO}× the ceiling, RSS ≤ ${TARGET_RSS_LOAD_MB} MB after the load → ${verdict.text}`,
    );
    await writeFigures(values.json, figures, verdict.ok);
    process.exitCode = verdict.ok ? 0 : 1;
  });
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
