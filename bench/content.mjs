/**
 * Public article reads at scale (issue 4): 10 000 generated Russian articles (with categories and
 * tags) in a database of their own, then GET /api/articles and GET /api/articles/search through the
 * gateway, and straight at the service to show what the gateway adds.
 *
 *   node bench/content.mjs [--articles 10000] [--connections 10] [--duration 5] [--reload]
 *
 * The data is loaded once (INSERT … SELECT generate_series) and kept for the next run; --reload loads
 * it again. PostgreSQL comes from BENCH_DATABASE_URL (default: the local server, database
 * gpt_bench_content). The service and the gateway run as child processes built by esbuild, as deploy
 * builds them; the load generator (autocannon) runs in this process. Each case runs with one client
 * (latency: p50 / p99) and with `connections` clients (throughput, and the latency it costs).
 * Target: p99 < 100 ms through the gateway with one client for the lists and the searches. Searches
 * for a word that is in every generated article (so all 9 000 match, are counted and ranked) are
 * shown as stress cases.
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import * as esbuild from 'esbuild';
import pg from 'pg';
import { freePorts, waitForPort } from './lib/ports.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const JWT_SECRET = 'bench-jwt-secret-0123456789abcdef-0123456789abcdef';
const BOT_API_KEY = 'bench-bot-key-0123456789';
const TARGET_P99_MS = 100;
/** Every RARE_EVERY-th article is about RARE_WORD: a selective search (0.1 % of articles). */
const RARE_WORD = 'криптография';
const RARE_EVERY = 1000;

/** Real Russian words in several forms, so stemming has work to do. */
const WORDS = `нейросеть нейросети нейросетей модель модели моделью моделей запрос запросы запросов ответ ответы
  ответов текст тексты текстов данные данных обучение обучения обученная генерация генерации изображение
  изображения изображений бот бота ботом боты пользователь пользователи пользователей кредит кредиты
  кредитов тариф тарифы тарифа подписка подписки интеллект интеллекта искусственный искусственного задача
  задачи задач работа работы работе работать пишет писать помогает помогают быстро точно удобно новый
  новые новых лучший лучшие простой простые сложный сложные контекст контекста агент агенты агентов
  тренд тренды трендов будущее рынок рынка компания компании разработчик разработчики код кода программа
  программы перевод перевода документ документы документов файл файлы файлов анализ анализа вопрос
  вопросы вопросов пример примеры примеров урок уроки инструкция инструкции руководство руководства
  мессенджер мессенджере телеграм сообщение сообщения сообщений чат чата чате диалог диалога диалоги
  промпт промпты промптов качество качества скорость скорости стоимость стоимости цена цены рублей
  месяц месяца день дня неделя недели год года время времени результат результаты результатов`
  .split(/\s+/)
  .filter(Boolean);

/** Each article has one of 20 topics (5 % of the articles each), named by a word in three forms. */
const TOPICS = [
  'медицина медицине медицинский',
  'финансы финансов финансовый',
  'образование образования образовательный',
  'маркетинг маркетинга маркетинговый',
  'право права юридический',
  'дизайн дизайна дизайнер',
  'музыка музыки музыкальный',
  'путешествия путешествий туристический',
  'кулинария рецепты рецептов',
  'спорт спорта спортивный',
  'астрономия астрономии звёзды',
  'биология биологии клетки',
  'химия химии реакции',
  'экономика экономики экономический',
  'психология психологии эмоции',
  'архитектура архитектуры здания',
  'логистика логистики доставка',
  'геология геологии минералы',
  'фотография фотографии снимки',
  'литература литературы роман',
];

const CATEGORIES = ['Новости', 'Кейсы', 'Обзоры', 'Программирование', 'Бизнес', 'Учёба', 'Исследования', 'Инструменты'];
const TAGS = Array.from({ length: 40 }, (_, i) => `Тег ${i + 1}`);

const { values } = parseArgs({
  options: {
    articles: { type: 'string', default: '10000' },
    connections: { type: 'string', default: '10' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    reload: { type: 'boolean', default: false },
  },
});
const ARTICLES = Number(values.articles);
const CONNECTIONS = Number(values.connections);
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gpt_bench_content';

const children = [];

async function main() {
  const [servicePort, gatewayPort] = await freePorts(2);
  const [serviceBundle, gatewayBundle] = await Promise.all([
    bundle('services/content/src/main.ts', 'content.mjs'),
    bundle('gateway/src/main.ts', 'gateway.mjs'),
  ]);

  const fresh = values.reload || (await publishedCount()) < ARTICLES * 0.8;
  if (fresh) await recreateDatabase();
  // The service migrates (and seeds) its database at start: the schema under test is the real one.
  children.push(
    startChild('content', serviceBundle, {
      PORT: String(servicePort),
      CONTENT_DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(ROOT, 'node_modules', '.cache', 'gpt-bench', 'content', 'data'),
    }),
  );
  await waitForPort(servicePort);
  if (fresh) await load();

  const service = `http://127.0.0.1:${servicePort}`;
  children.push(
    startChild('gateway', gatewayBundle, {
      PORT: String(gatewayPort),
      AUTH_URL: service,
      CONTENT_URL: service,
      BILLING_URL: service,
      CHAT_HISTORY_URL: service,
      METRICS_URL: service,
      WEB_DIR: path.join(ROOT, 'web', 'dist'),
      ACCESS_LOG: 'false',
    }),
  );
  await waitForPort(gatewayPort);
  const gateway = `http://127.0.0.1:${gatewayPort}`;

  const published = await publishedCount();
  const deepPage = Math.floor(published / 12 / 2);
  const q = (text) => encodeURIComponent(text);
  const cases = [
    ['list, page 1', '/api/articles?page=1&limit=12'],
    [`list, page ${deepPage} (middle)`, `/api/articles?page=${deepPage}&limit=12`],
    ['list of a category, page 1', '/api/articles/category/bench-cat-2?page=1&limit=12'],
    [`search "${RARE_WORD}" (0.1 %)`, `/api/articles/search?q=${q(RARE_WORD)}`],
    ['search "медицине" (a topic, 5 %)', `/api/articles/search?q=${q('медицине')}`],
    ['search "медицинский обучение" (2 words)', `/api/articles/search?q=${q('медицинский обучение')}`],
    ['search "медиц" (prefix)', `/api/articles/search?q=${q('медиц')}`],
    ['search "дицин" (part of a word)', `/api/articles/search?q=${q('дицин')}`],
    ['search "нейросети" (in every article)', `/api/articles/search?q=${q('нейросети')}`, 'stress'],
    ['search "ейросет" (part, every article)', `/api/articles/search?q=${q('ейросет')}`, 'stress'],
  ];

  console.log(
    `content bench: ${published.toLocaleString('en')} published articles (${ARTICLES.toLocaleString('en')} generated); ` +
      `${DURATION} s per measurement after ${WARMUP} s warm-up; node ${process.version}; ` +
      `${await serverVersion()}; ${availableParallelism()} CPUs, load average ${loadavg()[0].toFixed(1)} at start`,
  );
  console.log(
    `\n${pad('case', 40)}${pad('via', 9)}${lpad('matches', 8)}${lpad('1 client: p50', 15)}${lpad('p99 ms', 8)}` +
      `${lpad(`${CONNECTIONS} clients: req/s`, 20)}${lpad('p50', 6)}${lpad('p99 ms', 8)}  verdict`,
  );
  let met = true;
  for (const [name, url, kind] of cases) {
    for (const [via, base] of [
      ['gateway', gateway],
      ['service', service],
    ]) {
      const matches = await check(base + url);
      await cannon(base + url, WARMUP, CONNECTIONS);
      const alone = await cannon(base + url, DURATION, 1);
      const loaded = await cannon(base + url, DURATION, CONNECTIONS);
      const failed = [alone, loaded].reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0);
      const ok = failed === 0 && alone.latency.p99 < TARGET_P99_MS;
      if (via === 'gateway' && kind !== 'stress') met &&= ok;
      console.log(
        `${pad(name, 40)}${pad(via, 9)}${lpad(String(matches), 8)}${lpad(String(alone.latency.p50), 15)}` +
          `${lpad(String(alone.latency.p99), 8)}${lpad(loaded.requests.average.toFixed(0), 20)}` +
          `${lpad(String(loaded.latency.p50), 6)}${lpad(String(loaded.latency.p99), 8)}  ` +
          `${failed > 0 ? `${failed} FAILED` : ok ? 'ok' : kind === 'stress' ? 'over (stress case, not a target)' : 'MISSED'}`,
      );
    }
  }
  console.log(`load average ${loadavg()[0].toFixed(1)} at the end`);
  console.log(
    `\ntarget: p99 < ${TARGET_P99_MS} ms through the gateway with one client for every case but the stress ones → ${met ? 'met' : 'NOT met'}`,
  );
  process.exitCode = met ? 0 : 1;
}

/** One request first: the answer must be a list; returns its total. */
async function check(url) {
  const res = await fetch(url);
  const body = await res.json();
  if (res.status !== 200 || !Array.isArray(body.articles))
    throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return body.pagination.total;
}

function cannon(url, seconds, connections) {
  return autocannon({ url, connections, duration: seconds, timeout: 30 });
}

// ─── data ──────────────────────────────────────────────────────────────────────────────────────

async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function publishedCount() {
  try {
    return await withClient(databaseUrl, async (client) => {
      const { rows } = await client.query(
        `select count(*)::int as n from articles where status = 'published' and published_at <= now()`,
      );
      return rows[0].n;
    });
  } catch {
    return -1;
  }
}

async function recreateDatabase() {
  const admin = new URL(databaseUrl);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  await withClient(admin.toString(), async (client) => {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  });
}

async function load() {
  await withClient(databaseUrl, async (client) => {
    const step = async (label, sql, params) => {
      const started = performance.now();
      await client.query(sql, params);
      console.log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    };
    console.log(`loading ${ARTICLES.toLocaleString('en')} articles into ${new URL(databaseUrl).pathname.slice(1)}…`);
    await client.query(
      `create or replace function pg_temp.words(pool text[], k int) returns text language sql volatile as $$
         select string_agg(pool[1 + floor(random() * array_length(pool, 1))::int], ' ') from generate_series(1, k)
       $$`,
    );
    await step(
      'categories',
      `insert into article_categories (name, slug)
         select name, 'bench-cat-' || n from unnest($1::text[]) with ordinality as c(name, n) on conflict do nothing`,
      [CATEGORIES],
    );
    await step(
      'tags',
      `insert into article_tags (name, slug)
         select name, 'bench-tag-' || n from unnest($1::text[]) with ordinality as t(name, n) on conflict do nothing`,
      [TAGS],
    );
    // About 300 words each, in paragraphs of 60; 90 % published over the last two years, the rest drafts and archive.
    await step(
      `${ARTICLES} articles`,
      `insert into articles (slug, title, excerpt, content, plain_text, status, reading_time, published_at, created_at, updated_at)
       select 'bench-article-' || i, title, excerpt, '<p>' || array_to_string(paragraphs, '</p><p>') || '</p>',
         array_to_string(paragraphs, ' '),
         case when i % 20 = 0 then 'draft' when i % 20 = 1 then 'archived' else 'published' end, 2,
         case when i % 20 = 0 then null else now() - interval '730 days' * random() end, now(), now()
       from (
         select i,
           initcap(pg_temp.words($1, 5)) || case when i % ${RARE_EVERY} = 7 then ' и ${RARE_WORD}' else '' end as title,
           pg_temp.words($1, 20) as excerpt,
           array[pg_temp.words($1, 60), pg_temp.words($1, 60) || ' ' || ($2::text[])[1 + (i / 20) % 20], pg_temp.words($1, 60),
                 pg_temp.words($1, 60), pg_temp.words($1, 60) || ' ' || ($2::text[])[1 + (i / 20) % 20]] as paragraphs
         from generate_series(1, ${ARTICLES}) as i
       ) g`,
      [WORDS, TOPICS],
    );
    await step(
      'links to categories',
      `insert into article_category_links (article_id, category_id)
         select a.id, c.id from articles a join article_categories c on c.slug = 'bench-cat-' || (1 + a.id % 8)
         where a.slug like 'bench-article-%'
         union
         select a.id, c.id from articles a join article_categories c on c.slug = 'bench-cat-' || (1 + (a.id / 8) % 8)
         where a.slug like 'bench-article-%' and a.id % 3 = 0`,
    );
    await step(
      'links to tags',
      `insert into article_tag_links (article_id, tag_id)
         select distinct a.id, t.id from articles a
         cross join generate_series(1, 4) as k
         join article_tags t on t.slug = 'bench-tag-' || (1 + (a.id * k * 7) % 40)
         where a.slug like 'bench-article-%'`,
    );
    // What the service records on every save: the words the partial-word search looks fragments up in.
    await step(
      'search vocabulary',
      `insert into search_words (word) select distinct lower(w) from unnest($1::text[]) as w on conflict do nothing`,
      [[...WORDS, ...TOPICS.flatMap((topic) => topic.split(' ')), 'и', RARE_WORD]],
    );
    await step(
      'vacuum analyze',
      'vacuum analyze articles, article_category_links, article_tag_links, article_views, search_words',
    );
  });
}

async function serverVersion() {
  return withClient(
    databaseUrl,
    async (client) => (await client.query('show server_version')).rows[0].server_version,
  ).then((v) => `PostgreSQL ${v}`);
}

// ─── processes ─────────────────────────────────────────────────────────────────────────────────

async function bundle(entry, name) {
  // Inside node_modules so the external packages resolve from the repository's node_modules.
  const outfile = path.join(ROOT, 'node_modules', '.cache', 'gpt-bench', 'content', name);
  await mkdir(path.dirname(outfile), { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(ROOT, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    logLevel: 'warning',
    plugins: [
      {
        name: 'npm-packages-external',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@gpt/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  return outfile;
}

function startChild(name, script, env) {
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JWT_SECRET,
      BOT_API_KEY,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.name = name;
  child.on('exit', (code, signal) => {
    if (!child.stopping) console.error(`${name} exited unexpectedly (${code ?? signal})`);
  });
  return child;
}

async function stopAll() {
  for (const child of children.splice(0).reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.stopping = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

function pad(text, width) {
  return text.padEnd(width);
}

function lpad(text, width) {
  return text.padStart(width);
}

// Last, so every declaration above is initialised before it runs.
process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
try {
  await main();
} finally {
  await stopAll();
}
