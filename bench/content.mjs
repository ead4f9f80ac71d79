/**
 * Public article reads at scale: 10 000 generated Russian articles (with categories and
 * tags) in a database of their own, then GET /api/articles and GET /api/articles/search through the
 * gateway, and straight at the service (the reference: what the gateway adds).
 *
 *   node bench/content.mjs [--articles 10000] [--connections 10] [--duration 5] [--warmup 2]
 *                          [--cases list,search-topic,…] [--reload] [--smoke] [--json FILE]
 *
 * The data is loaded once (INSERT … SELECT generate_series) into the database gpt_bench_content on
 * the benchmark's PostgreSQL (BENCH_DATABASE_URL, default the local server) and kept for the next
 * run, unless the set there is of another size or was made by another version of the loader
 * (lib/dataset.mjs); --reload loads it again. --smoke: 300 articles in a database of their own, two
 * cases, one-second runs. The service and the gateway run as child processes built by esbuild,
 * as deploy builds them; the load generator (autocannon) runs in this process. Each case runs with
 * one client (latency: p50 / p99) and with `connections` clients (throughput, and the latency it
 * costs); --cases picks some of them by key (default: all). Target: p99 < 100 ms through the gateway
 * with one client for the lists and the searches. Searches for a word that is in every generated
 * article (so all 9 000 match, are counted and ranked) are shown as stress cases.
 *
 * Then the public reads at `--public-connections` (50) through the gateway, each against the
 * gateway's own ceiling measured in the same run: the gateway in front of gateway.mjs's
 * trivial JSON service, measured before and after the reads (their mean is the ceiling). Targets:
 * the list, an article, a category's and a tag's list, the select lists and the server-rendered
 * article page each ≥ 0.7× the ceiling with p99 ≤ 50 ms. Tariffs (billing) are not served here.
 */
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { bundleMains, requireWebBuild } from './lib/bundle.mjs';
import { openDataset } from './lib/dataset.mjs';
import { countRows, serverVersion, withClient } from './lib/infra.mjs';
import { call, cannon, warmUp } from './lib/load.mjs';
import { benchArgs, datasetOptions, pickCases, smoke, targetVerdict } from './lib/options.mjs';
import { fileURLToPath } from 'node:url';
import { ROOT, withProcesses } from './lib/processes.mjs';
import { freePorts, waitForPort } from './lib/ports.mjs';
import { local, startGateway, startService } from './lib/product.mjs';
import { figure, writeFigures } from './lib/report.mjs';
import { columns } from './lib/stats.mjs';

const TARGET_P99_MS = 100;
/** public reads through the gateway against the gateway's ceiling, at `public-connections`. */
const PUBLIC_TARGET_RATIO = 0.7;
const PUBLIC_TARGET_P99_MS = 50;
/** gateway.mjs runs the trivial JSON service behind the ceiling's gateway (its `--upstream` role). */
const GATEWAY_BENCH = fileURLToPath(new URL('./gateway.mjs', import.meta.url));
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
/** The data set's generator: bump it whenever load() changes what it generates (lib/dataset.mjs). */
const LOADER_VERSION = 1;

const values = benchArgs(
  {
    articles: { type: 'string', default: '10000' },
    connections: { type: 'string', default: '10' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    'public-connections': { type: 'string', default: '50' },
    ...datasetOptions,
  },
  {
    articles: '300',
    connections: '4',
    duration: '1',
    warmup: '0',
    cases: 'list,search-part',
    'public-connections': '4',
  },
);
const ARTICLES = Number(values.articles);
const CONNECTIONS = Number(values.connections);
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const PUBLIC_CONNECTIONS = Number(values['public-connections']);
const PUBLISHED = `select count(*)::int as n from articles where status = 'published' and published_at <= now()`;

const dataset = await openDataset('content', 'content', { loader: LOADER_VERSION, articles: ARTICLES }, values);
const database = dataset.url;
try {
  await withProcesses(main);
} finally {
  await dataset.close();
}

async function main(group) {
  const bundles = await bundleMains('content', ['content', 'gateway']);
  requireWebBuild(); // the server-rendered article page among the public reads
  // The service migrates (and seeds) its database at start: the schema under test is the real one.
  const service = await startService(group, 'content', bundles.content, {
    CONTENT_DATABASE_URL: database,
    DATA_DIR: path.join(ROOT, 'node_modules', '.cache', 'gpt-bench', 'content', 'data'),
  });
  if (dataset.stale) {
    await load();
    await dataset.loaded();
  }
  const gateway = await startGateway(group, {
    script: bundles.gateway,
    upstreamOf: () => service.url,
    env: { ACCESS_LOG: 'false' },
  });

  const published = await countRows(database, PUBLISHED);
  const deepPage = Math.floor(published / 12 / 2);
  const q = (text) => encodeURIComponent(text);
  const all = [
    ['list', 'list, page 1', '/api/articles?page=1&limit=12'],
    ['list-deep', `list, page ${deepPage} (middle)`, `/api/articles?page=${deepPage}&limit=12`],
    ['list-category', 'list of a category, page 1', '/api/articles/category/bench-cat-2?page=1&limit=12'],
    ['search-rare', `search "${RARE_WORD}" (0.1 %)`, `/api/articles/search?q=${q(RARE_WORD)}`],
    ['search-topic', 'search "медицине" (a topic, 5 %)', `/api/articles/search?q=${q('медицине')}`],
    ['search-two', 'search "медицинский обучение" (2 words)', `/api/articles/search?q=${q('медицинский обучение')}`],
    ['search-prefix', 'search "медиц" (prefix)', `/api/articles/search?q=${q('медиц')}`],
    ['search-part', 'search "дицин" (part of a word)', `/api/articles/search?q=${q('дицин')}`],
    ['stress-word', 'search "нейросети" (in every article)', `/api/articles/search?q=${q('нейросети')}`, 'stress'],
    ['stress-part', 'search "ейросет" (part, every article)', `/api/articles/search?q=${q('ейросет')}`, 'stress'],
  ];
  const cases = pickCases(all, values.cases);

  console.log(
    `content bench: ${published.toLocaleString('en')} published articles (${ARTICLES.toLocaleString('en')} generated); ` +
      `${DURATION} s per measurement after ${WARMUP} s warm-up; node ${process.version}; ` +
      `${await serverVersion()}; ${availableParallelism()} CPUs, load average ${loadavg()[0].toFixed(1)} at start`,
  );
  const line = columns([
    ['case', 40],
    ['via', 9],
    ['matches', -8],
    ['1 client: p50', -15],
    ['p99 ms', -8],
    [`${CONNECTIONS} clients: req/s`, -20],
    ['p50', -6],
    ['p99 ms', -8],
    ['  verdict', 0],
  ]);
  console.log(`\n${line.header}`);
  let met = true;
  let failures = 0;
  const figures = [];
  for (const [, name, url, kind] of cases) {
    const measured = {};
    for (const [via, base] of [
      ['gateway', gateway.url],
      ['direct', service.url],
    ]) {
      const body = await call(base + url);
      if (!Array.isArray(body.articles)) throw new Error(`${base + url}: no list of articles`);
      await warmUp({ url: base + url }, { connections: CONNECTIONS, duration: WARMUP });
      const alone = await cannon({ url: base + url }, { connections: 1, duration: DURATION });
      const loaded = await cannon({ url: base + url }, { connections: CONNECTIONS, duration: DURATION });
      const failed = alone.failed + loaded.failed;
      failures += failed;
      const ok = alone.p99 < TARGET_P99_MS;
      if (via === 'gateway' && kind !== 'stress') met &&= ok;
      measured[via] = { alone, loaded };
      console.log(
        line([
          name,
          via,
          body.pagination.total,
          alone.p50,
          alone.p99,
          loaded.rps.toFixed(0),
          loaded.p50,
          loaded.p99,
          `  ${failed > 0 ? `${failed} FAILED` : ok ? 'ok' : kind === 'stress' ? 'over (stress case, not a target)' : 'MISSED'}`,
        ]),
      );
    }
    const { gateway: g, direct: d } = measured;
    figures.push(
      figure(
        `${name}, 1 client: p99`,
        'ms',
        ['gateway', g.alone.p99],
        ['direct', d.alone.p99],
        kind === 'stress' ? 'stress case' : `target < ${TARGET_P99_MS} ms through the gateway`,
      ),
      figure(`${name}, ${CONNECTIONS} clients: req/s`, 'req/s', ['gateway', g.loaded.rps], ['direct', d.loaded.rps]),
    );
  }
  console.log(`load average ${loadavg()[0].toFixed(1)} at the end`);
  const verdict = targetVerdict(met);
  console.log(
    `\ntarget: p99 < ${TARGET_P99_MS} ms through the gateway with one client for every case but the stress ones → ${verdict.text}`,
  );
  if (failures > 0) console.log(`${failures} requests failed (errors, timeouts or non-2xx answers)`);
  const reads = await publicReads(group, bundles.gateway, gateway.url);
  figures.push(...reads.figures);
  const passed = verdict.ok && failures === 0 && reads.ok;
  await writeFigures(values.json, figures, passed);
  process.exitCode = passed ? 0 : 1;
}

/**
 * each public read at PUBLIC_CONNECTIONS through the gateway, against the gateway in
 * front of a trivial JSON service (the ceiling), measured in this run before and after the reads.
 */
async function publicReads(group, gatewayBundle, gatewayUrl) {
  const [upstreamPort] = await freePorts(1);
  group.node('upstream', GATEWAY_BENCH, { PORT: String(upstreamPort) }, ['--upstream']);
  await waitForPort(upstreamPort);
  const ceilingGateway = await startGateway(group, {
    script: gatewayBundle,
    upstreamOf: () => local(upstreamPort),
    env: { ACCESS_LOG: 'false' },
  });
  const [article] = (await call(`${gatewayUrl}/api/articles?page=1&limit=1`)).articles;
  const reads = [
    ['list, page 1', '/api/articles?page=1&limit=12'],
    ['an article by slug', `/api/articles/${article.slug}`],
    ['list of a category, page 1', '/api/articles/category/bench-cat-2?page=1&limit=12'],
    ['list of a tag, page 1', '/api/articles/tag/bench-tag-3?page=1&limit=12'],
    ['category select list', '/api/article_categories/select'],
    ['tag select list', '/api/article_tags/select'],
    ['server-rendered article page', `/articles/${article.slug}`],
  ];
  const run = async (url) => {
    await warmUp({ url }, { connections: PUBLIC_CONNECTIONS, duration: WARMUP });
    const result = await cannon({ url }, { connections: PUBLIC_CONNECTIONS, duration: DURATION });
    if (result.failed > 0) throw new Error(`${url}: ${result.failed} requests failed`);
    return result;
  };
  const ceilingUrl = `${ceilingGateway.url}/api/articles?page=1&limit=12`;
  const line = columns([
    ['public read through the gateway', 34],
    ['req/s', -8],
    ['p50', -6],
    ['p99 ms', -8],
    ['× ceiling', -10],
    ['load', -6],
    ['  verdict', 0],
  ]);
  console.log(
    `\npublic reads, ${PUBLIC_CONNECTIONS} connections, ${DURATION} s each; ceiling: the gateway in front of a trivial ` +
      `JSON service; target ≥ ${PUBLIC_TARGET_RATIO}× the ceiling with p99 ≤ ${PUBLIC_TARGET_P99_MS} ms\n${line.header}`,
  );
  const ceilingBefore = await run(ceilingUrl);
  console.log(
    line([
      'ceiling (before)',
      ceilingBefore.rps.toFixed(0),
      ceilingBefore.p50,
      ceilingBefore.p99,
      '',
      loadavg()[0].toFixed(1),
      '',
    ]),
  );
  const measured = [];
  for (const [name, path] of reads) measured.push([name, await run(gatewayUrl + path), loadavg()[0]]);
  const ceilingAfter = await run(ceilingUrl);
  console.log(
    line([
      'ceiling (after)',
      ceilingAfter.rps.toFixed(0),
      ceilingAfter.p50,
      ceilingAfter.p99,
      '',
      loadavg()[0].toFixed(1),
      '',
    ]),
  );
  const ceiling = (ceilingBefore.rps + ceilingAfter.rps) / 2;

  let met = true;
  const figures = [];
  for (const [name, result, load] of measured) {
    const ratio = result.rps / ceiling;
    const ok = ratio >= PUBLIC_TARGET_RATIO && result.p99 <= PUBLIC_TARGET_P99_MS;
    met &&= ok;
    const verdict = smoke ? 'not judged (smoke run)' : ok ? 'met' : 'MISSED';
    console.log(
      line([name, result.rps.toFixed(0), result.p50, result.p99, ratio.toFixed(2), load.toFixed(1), `  ${verdict}`]),
    );
    figures.push(
      figure(
        `${name}, ${PUBLIC_CONNECTIONS} connections: req/s vs the gateway's ceiling`,
        'req/s',
        ['gateway', result.rps],
        ['ceiling', ceiling],
        `p99 ${result.p99} ms; target ≥ ${PUBLIC_TARGET_RATIO}× and p99 ≤ ${PUBLIC_TARGET_P99_MS} ms: ${verdict}`,
      ),
    );
  }
  const verdict = targetVerdict(met);
  console.log(
    `target: every public read ≥ ${PUBLIC_TARGET_RATIO}× the ceiling with p99 ≤ ${PUBLIC_TARGET_P99_MS} ms → ${verdict.text}`,
  );
  return { ok: verdict.ok, figures };
}

// ─── data ──────────────────────────────────────────────────────────────────────────────────────

async function load() {
  await withClient(database, async (client) => {
    const step = async (label, sql, params) => {
      const started = performance.now();
      await client.query(sql, params);
      console.log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    };
    console.log(`loading ${ARTICLES.toLocaleString('en')} articles into ${new URL(database).pathname.slice(1)}…`);
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
