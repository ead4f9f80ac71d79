// The web chat (docs/architecture.md, The assistant) on the embedded default (`npm start`, one process, a
// fresh DATA_DIR), its model the tests' fake OpenAI-compatible API streaming one word every --chunk-ms, in a
// process of its own (this file's `--role model`), as are the --streams readers (`--role streams`), so the
// load they make is not in the process that measures. Three figures:
//   - the time to the first streamed token on the web (POST the question, then its event stream's first
//     delta, through the gateway) beside the fake model's own (a streamed request straight to it), the
//     medians of --asks questions asked one after another; target: at most 150 ms more;
//   - `GET /api/tariffs` p99 while --streams answers stream at once (each in its own conversation, each read
//     by its own event stream) beside its p99 idle just before; target ≤ 2×;
//   - the embedded process's RSS with those streams open; target ≤ 550 MB.
//
//   node bench/web-chat.mjs [--streams 200] [--asks 10] [--chunk-ms 50] [--duration 3] [--json FILE] [--smoke]
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { bundle, requireWebBuild } from './lib/bundle.mjs';
import { call, cannon } from './lib/load.mjs';
import { benchArgs, targetVerdict } from './lib/options.mjs';
import { freePorts } from './lib/ports.mjs';
import { rssMb, withProcesses } from './lib/processes.mjs';
import { local, startEmbedded } from './lib/product.mjs';
import { figure, writeFigures } from './lib/report.mjs';
import { columns, percentiles } from './lib/stats.mjs';

const values = benchArgs(
  {
    streams: { type: 'string', default: '200' },
    asks: { type: 'string', default: '10' },
    'chunk-ms': { type: 'string', default: '50' },
    duration: { type: 'string', default: '3' },
    role: { type: 'string' },
    out: { type: 'string' },
    site: { type: 'string' },
    token: { type: 'string' },
  },
  { streams: '10', asks: '3', duration: '1' },
);
const STREAMS = Number(values.streams);
const ASKS = Number(values.asks);
const CHUNK_MS = Number(values['chunk-ms']);
const DURATION = Number(values.duration);
const TARGET_OVERHEAD_MS = 150;
const TARGET_P99_RATIO = 2;
const TARGET_RSS_MB = 550;
const ADMIN = {
  email: 'bench-admin@example.com',
  password: 'bench-admin-12345',
};
/** An answer long enough to stream through the whole measurement: a word every CHUNK_MS. */
const answerWords = (seconds) =>
  Array.from({ length: Math.ceil((seconds * 1000) / CHUNK_MS) }, (_, i) => `слово${i}`).join(' ');

/** Streams a long answer to the streams' questions («Поток N»), a short one to any other. */
const answerOf = (seconds) => (messages) =>
  String(messages.at(-1)?.content ?? '').startsWith('Поток')
    ? answerWords(seconds)
    : 'Короткий ответ из нескольких слов для первого токена.';

/** `--role model`: the fake model API, its address written to --out. */
async function runModel() {
  const { startFakeOpenAI } = await import(values.out.replace(/\.url$/, '.mjs'));
  const model = await startFakeOpenAI();
  model.slow(CHUNK_MS);
  model.reply(answerOf(DURATION + 8 + STREAMS / 20));
  await writeFile(values.out, model.baseURL);
}

/** `--role streams`: STREAMS questions, each in a new conversation and read by its own event stream; «asked» then «done» to --out. */
async function runStreams() {
  // «Новый чат» reuses an empty current conversation: each is asked in before the next is made.
  const reading = [];
  for (let i = 0; i < STREAMS; i++) {
    const { answerId } = await ask(
      values.site,
      values.token,
      await newConversation(values.site, values.token),
      `Поток ${i}`,
    );
    reading.push(readAnswer(values.site, values.token, answerId));
  }
  await writeFile(values.out, 'asked');
  await Promise.all(reading);
  await writeFile(values.out, 'done');
  // Stays until the bench stops it, as the model's process does.
  setInterval(() => undefined, 60_000);
}

const headers = (token) => ({ Authorization: `Bearer ${token}` });
const newConversation = async (site, token) =>
  (
    await call(`${site}/api/chat/conversations`, {
      method: 'POST',
      headers: headers(token),
      body: {},
      expect: 201,
    })
  ).id;
const ask = (site, token, conversation, text) =>
  call(`${site}/api/chat/conversations/${conversation}/messages`, {
    method: 'POST',
    headers: headers(token),
    body: { text },
    expect: 202,
  });

/**
 * Reads a streamed answer (keeping only its last 4 000 characters) until it ends or `last` says so:
 * when `first` first held (performance.now()) and the tail.
 */
async function readStream(response, first, last = () => false) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let tail = '';
  let firstAt = null;
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    tail = (tail + decoder.decode(chunk.value, { stream: true })).slice(-4000);
    if (firstAt === null && first.test(tail)) firstAt = performance.now();
    if (last(tail)) {
      await reader.cancel();
      break;
    }
  }
  return { firstAt, tail };
}

/** An answer's event stream, read as the browser reads it: resolves with the time of its first delta at its end. */
async function readAnswer(site, token, answerId) {
  const response = await fetch(`${site}/api/chat/answers/${answerId}/events`, { headers: headers(token) });
  if (response.status !== 200) throw new Error(`events of ${answerId}: ${response.status}`);
  const { firstAt, tail } = await readStream(response, /event: delta/, (text) => text.includes('event: done'));
  if (!tail.includes('"status":"done"')) throw new Error(`answer ${answerId} did not end as done: ${tail.slice(-300)}`);
  return firstAt;
}

/** The fake model's own time to its first token: a streamed completion asked of it directly. */
async function modelFirstToken(baseURL) {
  const started = performance.now();
  const response = await fetch(`${baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
    body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Привет' }] }),
  });
  const { firstAt } = await readStream(response, /"content":"[^"]+"/);
  return firstAt - started;
}

/** Resolves once --out of a role says `word` (or throws when its process ended first). */
async function until(file, word, child) {
  for (;;) {
    const said = await readFile(file, 'utf8').catch(() => '');
    if (said === word || (word === 'url' && said.startsWith('http'))) return said;
    if (!child.running()) throw new Error(`${child.name} ended before it said ${word}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

if (values.role === 'model') await runModel();
else if (values.role === 'streams') await runStreams();
else await main();

async function main() {
  requireWebBuild();
  const work = await mkdtemp(path.join(tmpdir(), 'gpt-bench-web-chat-'));
  const dataDir = path.join(work, 'data');
  const modelBundle = (
    await bundle('web-chat', {
      openai: 'services/bot/test/support/fake-openai.ts',
    })
  ).openai;
  const { embedded } = await bundle('web-chat-product', {
    embedded: 'deploy/src/embedded.ts',
  });
  const self = fileURLToPath(import.meta.url);
  const common = ['--streams', String(STREAMS), '--chunk-ms', String(CHUNK_MS), '--duration', String(DURATION)];

  try {
    await withProcesses(async (group) => {
      const modelOut = modelBundle.replace(/\.mjs$/, '.url');
      await rm(modelOut, { force: true });
      const modelChild = group.node('model', self, {}, ['--role', 'model', '--out', modelOut, ...common]);
      const model = { baseURL: await until(modelOut, 'url', modelChild) };
      const [port] = await freePorts(1);
      const product = await startEmbedded(group, {
        bundle: embedded,
        port,
        dataDir,
        env: {
          LLM_API_URL: model.baseURL,
          LLM_API_KEY: 'bench',
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
        },
      });
      const site = local(port);
      const admin = await call(`${site}/api/auth/login`, {
        method: 'POST',
        body: ADMIN,
      });
      const asAdmin = { Authorization: `Bearer ${admin.token}` };
      const person = await call(`${site}/api/auth/register`, {
        method: 'POST',
        body: {
          email: `bench-${randomUUID()}@example.com`,
          password: 'bench-password-1',
        },
        expect: 201,
      });
      await call(`${site}/api/admin/users/${person.user.id}`, {
        method: 'PUT',
        headers: { ...asAdmin, 'Idempotency-Key': randomUUID() },
        body: { depositAmount: 500_000_000, reason: 'bench' },
      });
      await call(`${site}/api/admin/sys_vals/bot_messages_per_minute`, {
        method: 'PUT',
        headers: { ...asAdmin, 'Idempotency-Key': randomUUID() },
        body: { value: '600' },
      });

      // The first token: the web's, and the model's own, one question at a time.
      const web = [];
      const own = [];
      for (let i = 0; i < ASKS; i++) {
        own.push(await modelFirstToken(model.baseURL));
        const conversation = await newConversation(site, person.token);
        const started = performance.now();
        const { answerId } = await ask(site, person.token, conversation, `Вопрос ${i}`);
        web.push((await readAnswer(site, person.token, answerId)) - started);
      }
      const webFirst = percentiles(web).p50;
      const ownFirst = percentiles(own).p50;
      const overhead = webFirst - ownFirst;

      // /api/tariffs idle, then with STREAMS answers streaming at once (asked and read by the streams process).
      const tariffs = { url: `${site}/api/tariffs` };
      await cannon(tariffs, { connections: 10, duration: 1 });
      const idle = await cannon(tariffs, {
        connections: 10,
        duration: DURATION,
      });
      const streamsOut = path.join(work, 'streams');
      const streams = group.node('streams', self, {}, [
        ...['--role', 'streams', '--out', streamsOut, '--site', site, '--token', person.token],
        ...common,
      ]);
      await until(streamsOut, 'asked', streams);
      const busy = await cannon(tariffs, {
        connections: 10,
        duration: DURATION,
      });
      const rssStreams = rssMb(product.pid);
      await until(streamsOut, 'done', streams);
      if (idle.failed > 0 || busy.failed > 0)
        throw new Error(`/api/tariffs: ${idle.failed + busy.failed} requests failed`);
      const p99Ratio = busy.p99 / Math.max(idle.p99, 1);

      const line = columns([
        ['web chat on the embedded default', 52],
        ['measured', -12],
        ['reference', -12],
        ['target', -20],
        ['  verdict', 0],
      ]);
      const rows = [
        [
          'first streamed token (median)',
          `${webFirst.toFixed(0)} ms`,
          `${ownFirst.toFixed(0)} ms`,
          `≤ model's + ${TARGET_OVERHEAD_MS} ms`,
          overhead <= TARGET_OVERHEAD_MS,
        ],
        [
          `GET /api/tariffs p99, ${STREAMS} answers streaming`,
          `${busy.p99} ms`,
          `${idle.p99} ms`,
          `≤ ${TARGET_P99_RATIO}× idle`,
          p99Ratio <= TARGET_P99_RATIO,
        ],
        [
          `RSS with ${STREAMS} answers streaming`,
          `${rssStreams.toFixed(0)} MB`,
          '',
          `≤ ${TARGET_RSS_MB} MB`,
          rssStreams <= TARGET_RSS_MB,
        ],
      ];
      console.log(
        `\n${ASKS} questions one at a time (the model's first token after ${ownFirst.toFixed(0)} ms, a word every ` +
          `${CHUNK_MS} ms): the web's first token p50 ${webFirst.toFixed(0)} ms, p95 ${percentiles(web).p95.toFixed(0)} ms, ` +
          `overhead ${overhead.toFixed(0)} ms; /api/tariffs (10 connections, ${DURATION} s) idle ${idle.rps.toFixed(0)} req/s, ` +
          `${STREAMS} streams ${busy.rps.toFixed(0)} req/s; load average ${loadavg()[0].toFixed(1)}\n${line.header}`,
      );
      let met = true;
      const verdicts = rows.map(([name, measured, reference, target, ok]) => {
        met &&= ok;
        const verdict = targetVerdict(ok).text;
        console.log(line([name, measured, reference, target, `  ${verdict}`]));
        return verdict;
      });
      const figures = [
        figure(
          'web chat: first streamed token vs the model’s own (median)',
          'ms',
          ['web', webFirst],
          ['model', ownFirst],
          `overhead ${overhead.toFixed(0)} ms, target ≤ ${TARGET_OVERHEAD_MS} ms: ${verdicts[0]}`,
        ),
        figure(
          `GET /api/tariffs p99 with ${STREAMS} answers streaming vs idle`,
          'ms',
          ['streaming', busy.p99],
          ['idle', idle.p99],
          `target ≤ ${TARGET_P99_RATIO}×: ${verdicts[1]}`,
        ),
        figure(
          `embedded RSS with ${STREAMS} answers streaming`,
          'MB',
          ['embedded', rssStreams],
          ['target', TARGET_RSS_MB],
          `target ≤ ${TARGET_RSS_MB} MB: ${verdicts[2]}`,
        ),
      ];
      const verdict = targetVerdict(met);
      console.log(
        `targets: first token ≤ the model's + ${TARGET_OVERHEAD_MS} ms, /api/tariffs p99 ≤ ${TARGET_P99_RATIO}× idle, ` +
          `RSS ≤ ${TARGET_RSS_MB} MB → ${verdict.text}`,
      );
      await writeFigures(values.json, figures, verdict.ok);
      process.exitCode = verdict.ok ? 0 : 1;
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
