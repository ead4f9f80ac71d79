/**
 * The Telegram bot: simulated users talking to the bot through a fake Telegram Bot API,
 * answered by a fake OpenAI-compatible model API that streams, with every message paid through
 * billing's holds.
 *
 *   node bench/bot.mjs [--users 200] [--messages 2] [--affordable 1] [--profile DIR] [--smoke] [--json FILE]
 *
 * The product's services the bot needs run as in production, each in its own process (auth,
 * billing, chat-history and the bot, their TypeScript bundled by esbuild), on PostgreSQL, RabbitMQ
 * and Redis at their standard local ports (or BENCH_*_URL). The fakes (the same ones the tests use)
 * run in this process. Every user presses /start and then sends --messages questions at once, with
 * a welcome grant of --affordable holds: each question holds the most it can cost, so questions
 * beyond the credits are refused and no balance may ever go below zero. Telegram's own limits
 * (30 messages a second, one a second per chat) are kept by the bot's throttler and show in the
 * latencies of a crowd.
 *
 * Figures: the time from a user's first question to the placeholder, p95, beside the floor Telegram's
 * limit sets for the crowd (the p95 rank of placeholders sent at the throttler's messages a second,
 * none of them behind another chat's streaming edit; target ≤ 1.2× it); the time to the first
 * streamed edit beside it; the bot's CPU per answered message (target ≤ 8 ms) beside the bare bot's
 * (./lib/bare-bot.mjs: the same calls with the same libraries and nothing else, asked by a second
 * crowd once the bot has stopped) and chat-history's (which records each one); the answers complete
 * (every affordable question answered in full); and the overdraft count — users whose balance ended
 * below zero — which must be 0. --profile DIR runs
 * the bot with `--cpu-prof` and leaves its profile there. --smoke: 10 users.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { bundle, bundleMains } from './lib/bundle.mjs';
import {
  BENCH_QUEUE_TYPE,
  databaseUrl,
  dropDatabases,
  recreateDatabase,
  requireServers,
  servers,
} from './lib/infra.mjs';
import { call } from './lib/load.mjs';
import { benchArgs, targetVerdict } from './lib/options.mjs';
import { ROOT, cpuMs, onInterrupt, processGroup } from './lib/processes.mjs';
import { BOT_API_KEY, envName, local, signToken, startService } from './lib/product.mjs';
import { figure, writeFigures } from './lib/report.mjs';
import { freePorts } from './lib/ports.mjs';
import { percentiles } from './lib/stats.mjs';

const NEEDED = ['billing', 'auth', 'chat-history', 'bot'];
/** A run that has not settled after this long has lost messages (and fails). */
const SETTLE_MS = 600_000;
/** What the bot says when an answer failed: the bench fails too. */
const FAILURES = ['Сервис временно недоступен', 'Не удалось получить ответ модели'];
/** Targets: the placeholder p95 within this multiple of Telegram's floor; the bot's CPU per answered message. */
const TARGET_FLOOR_RATIO = 1.2;
const TARGET_CPU_MS = 8;
const ANSWER = 'Это ответ модели: короткий, но настоящий, из нескольких частей, как при потоковой передаче.';

const values = benchArgs(
  {
    users: { type: 'string', default: '200' },
    messages: { type: 'string', default: '2' },
    affordable: { type: 'string', default: '1' },
    profile: { type: 'string' },
  },
  { users: '10', messages: '4', affordable: '2' },
);
const users = Number(values.users);
const perUser = Number(values.messages);
const affordable = Number(values.affordable);

await requireServers('postgres', 'amqp', 'redis');
const group = processGroup();
const run = randomUUID().slice(0, 8);
const databases = NEEDED.map((name) => databaseUrl(`bench_${name.replace('-', '_')}_${run}`));
const bareDatabase = databaseUrl(`bench_bare_bot_${run}`);
onInterrupt(() => dropDatabases([...databases, bareDatabase]));
let failed = true;
try {
  const fakes = await bundle('bot-fakes', {
    telegram: 'services/telegram-sandbox/src/testing.ts',
    openai: 'services/bot/test/support/fake-openai.ts',
    throttle: 'services/bot/src/telegram/throttle.ts',
  });
  const [{ startFakeTelegram }, { startFakeOpenAI }, { TELEGRAM_LIMITS }] = await Promise.all([
    import(fakes.telegram),
    import(fakes.openai),
    import(fakes.throttle),
  ]);
  const [telegram, openai] = await Promise.all([startFakeTelegram(), startFakeOpenAI()]);
  openai.reply(() => ANSWER);
  openai.slow(20);

  const bundles = await bundleMains('bot', NEEDED);
  const env = {
    AMQP_URL: servers.amqp,
    AMQP_QUEUE_TYPE: BENCH_QUEUE_TYPE,
    AMQP_EXCHANGE: `bench.bot.${run}`,
    REDIS_URL: servers.redis,
    REDIS_KEY_PREFIX: `bench-bot-${run}:`,
    ADMIN_EMAIL: `admin-${run}@example.com`,
    ADMIN_PASSWORD: 'bench-admin-password',
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_URL: telegram.apiUrl,
    LLM_API_URL: openai.baseURL,
    LLM_API_KEY: 'sk-bench',
    BOT_CATALOG_TTL_MS: '5000',
    // Production requires payment keys; nothing here pays, so they lead nowhere.
    YOOKASSA_API_URL: 'http://127.0.0.1:9',
    YOOKASSA_SHOP_ID: 'bench',
    YOOKASSA_SECRET_KEY: 'bench',
    ...Object.fromEntries(NEEDED.map((name, i) => [`${envName(name)}_DATABASE_URL`, databases[i]])),
  };
  // Each service knows where the others listen, as in production (billing reads a user through from auth).
  const ports = await freePorts(NEEDED.length);
  const urls = Object.fromEntries(NEEDED.map((name, i) => [`${envName(name)}_URL`, local(ports[i])]));
  const started = {};
  for (const [i, name] of NEEDED.slice(0, 3).entries()) {
    started[name] = await startService(group, name, bundles[name], { ...env, ...urls, PORT: String(ports[i]) });
  }

  // Every new user gets the welcome grant; it is set to pay for `affordable` questions, no more.
  const admin = { Authorization: `Bearer ${signToken('admin', 1)}` };
  const history = started['chat-history'].url;
  const { models } = await call(`${history}/api/bot/models`, { headers: { 'X-Bot-Key': BOT_API_KEY } });
  const model = models.find((candidate) => candidate.model === 'gpt-4o-mini');
  const perQuestion = await holdOf(model);
  const budget = affordable * perQuestion;
  await call(`${history}/api/admin/sys_vals/welcome_credits`, {
    method: 'PUT',
    headers: admin,
    body: { value: String(budget) },
  });
  const profiling = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : [];
  started.bot = await startService(group, 'bot', bundles.bot, { ...env, ...urls, PORT: String(ports[3]) }, profiling);
  const bot = started.bot;
  await waitForGrant(started.auth.url, started.billing.url, budget);
  console.log(
    `bot bench: ${users} users × ${perUser} questions at once, credits for ${affordable} (${budget} credits, ${perQuestion} a hold); ` +
      `node ${process.version}; auth, billing, chat-history and the bot in their own processes on PostgreSQL + RabbitMQ + Redis`,
  );

  const people = crowd(9_000_000, users);
  const asked = await askCrowd(telegram, people, { bot: bot.child.pid, history: started['chat-history'].child.pid });
  const { answered, refused, broken, begun } = asked;

  // The same crowd, new users, against the bare bot: the bot's calls and nothing else (./lib/bare-bot.mjs).
  await bot.child.stop();
  await recreateDatabase(bareDatabase);
  const bare = await startService(group, 'bare bot', path.join(ROOT, 'bench', 'lib', 'bare-bot.mjs'), {
    ...env,
    ...urls,
    PORT: String(ports[3]),
    BOT_DATABASE_URL: bareDatabase,
    HOLD_CREDITS: String(perQuestion),
  });
  const bareAsked = await askCrowd(telegram, crowd(9_500_000, users), { bare: bare.child.pid });
  await bare.child.stop();
  const cpu = { ...asked.cpu, ...bareAsked.cpu };

  const balances = await Promise.all(
    people.map((person) =>
      call(`${started.billing.url}/api/bot/balance?telegram_id=${person.id}`, {
        headers: { 'X-Bot-Key': BOT_API_KEY },
      }),
    ),
  );
  const overdrafts = balances.filter((balance) => balance.credits < 0 || balance.available_credits < 0).length;

  const at = { edit: percentiles(asked.firstEdit), placeholder: percentiles(asked.placeholder) };
  // The placeholders alone at Telegram's rate: the one at the p95 rank cannot be sent before rank / rate.
  const floorMs = (Math.ceil(0.95 * users) / TELEGRAM_LIMITS.perSecond) * 1000;
  const ratio = at.placeholder.p95 / floorMs;
  const verdicts = { floor: targetVerdict(ratio <= TARGET_FLOOR_RATIO), cpu: targetVerdict(cpu.bot <= TARGET_CPU_MS) };
  console.log(
    `settled in ${asked.elapsed.toFixed(1)} s: ${answered} answered, ${refused} refused for want of credits, ${broken} failed`,
  );
  console.log(
    `update → placeholder (ms)   p50 ${at.placeholder.p50.toFixed(1)}  p95 ${at.placeholder.p95.toFixed(1)}  ` +
      `floor ${floorMs.toFixed(1)} (${users} placeholders at ${TELEGRAM_LIMITS.perSecond} msg/s, p95 rank)  ` +
      `ratio ${ratio.toFixed(2)}, target ≤ ${TARGET_FLOOR_RATIO}: ${verdicts.floor.text}`,
  );
  console.log(`update → first edit (ms)    p50 ${at.edit.p50.toFixed(1)}  p95 ${at.edit.p95.toFixed(1)}`);
  console.log(`final answers complete (the whole text in the placeholder's place): ${answered}/${begun} begun`);
  console.log(
    `CPU ms per answered message: bot ${cpu.bot.toFixed(2)} (target ≤ ${TARGET_CPU_MS}: ${verdicts.cpu.text}), ` +
      `bare bot ${cpu.bare.toFixed(2)} (the same calls with the same libraries, nothing else; ${bareAsked.answered} answered), ` +
      `chat-history ${cpu.history.toFixed(2)}`,
  );
  console.log(`overdrafts (balances below zero): ${overdrafts}`);
  failed = overdrafts > 0 || broken > 0 || answered !== begun || !verdicts.floor.ok || !verdicts.cpu.ok;
  await writeFigures(
    values.json,
    [
      figure(
        'update → placeholder: p95',
        'ms',
        ['placeholder', at.placeholder.p95],
        [`floor at ${TELEGRAM_LIMITS.perSecond} msg/s`, floorMs],
        `${users} users; target ≤ ${TARGET_FLOOR_RATIO}×`,
      ),
      figure(
        'update → first streamed edit: p95',
        'ms',
        ['first edit', at.edit.p95],
        ['placeholder', at.placeholder.p95],
        `${users} users`,
      ),
      figure(
        'CPU per answered message',
        'ms',
        ['bot', cpu.bot],
        ['bare bot', cpu.bare],
        `${answered} answers; bot target ≤ ${TARGET_CPU_MS} ms; the bare bot makes the same calls with the same libraries`,
      ),
      figure(
        'CPU per answered message: the bot beside the service recording it',
        'ms',
        ['bot', cpu.bot],
        ['chat-history', cpu.history],
        `${answered} answers`,
      ),
      figure(
        'final answers complete',
        'answers',
        ['complete', answered],
        ['begun', begun],
        `target all; ${broken} failed`,
      ),
      figure(
        'overdrafts (balances below zero)',
        'users',
        ['below zero', overdrafts],
        ['users', users],
        `target 0; ${refused} of ${users * perUser} refused for want of credits`,
      ),
    ],
    !failed,
  );
  await Promise.all([telegram.close(), openai.close()]);
} finally {
  await group.stopAll();
  await dropDatabases([...databases, bareDatabase]);
}
process.exit(failed ? 1 : 0);

/** The credits a hold of one question takes with an empty conversation (the bot's own estimate). */
async function holdOf(model) {
  const { messageCost, DEFAULT_COST_SETTINGS } = await import(
    (await bundle('bot-pricing', { pricing: 'contracts/src/pricing.ts' })).pricing
  );
  // The system prompt and a short question, estimated as the bot does (two characters a token), and the output limit.
  const inputTokens = 200;
  return Number(
    messageCost({
      status: 'success',
      input_tokens: inputTokens,
      output_tokens: 1024,
      input_price_per_1m: model.input_price_per_1m,
      output_price_per_1m: model.output_price_per_1m,
      settings: DEFAULT_COST_SETTINGS,
    }).cost,
  );
}

/** Waits until billing grants new users the changed welcome credits (the setting travels as an event). */
async function waitForGrant(authUrl, billingUrl, budget) {
  const headers = { 'X-Bot-Key': BOT_API_KEY };
  for (let probe = 0; probe < 50; probe++) {
    const telegramId = 8_000_000 + probe;
    await call(`${authUrl}/api/bot/users`, { method: 'POST', headers, body: { telegram_id: telegramId } });
    for (let i = 0; i < 20; i++) {
      const balance = await call(`${billingUrl}/api/bot/balance?telegram_id=${telegramId}`, { headers }).catch(
        () => null,
      );
      if (balance?.credits === budget) return;
      if (balance) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('billing never applied the welcome_credits setting');
}

/** `count` Telegram users, their ids from `firstId`. */
function crowd(firstId, count) {
  return Array.from({ length: count }, (_, i) => ({ id: firstId + i, first_name: `Пользователь ${i}` }));
}

/**
 * Every user of `people` presses /start; once all are welcomed, each sends the questions at once.
 * What they saw (answers, refusals, failures, the placeholders begun and their latencies), and the
 * CPU per answered message each process of `pids` ({ name: pid }) spent on the questions.
 */
async function askCrowd(telegram, people, pids) {
  for (const person of people) telegram.sendCommand(person, '/start');
  await settle(telegram, people, (log) => log.some((text) => text.startsWith('Здравствуйте')), 'the welcome');

  const cpuBefore = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  const sentAt = new Map();
  const marks = new Map();
  const start = performance.now();
  for (const person of people) {
    marks.set(person.id, telegram.calls.length);
    sentAt.set(person.id, performance.now());
    for (let i = 0; i < perUser; i++) telegram.sendText(person, `Вопрос ${i + 1}`);
  }
  const outcomes = (log) => ({
    answered: log.filter((text) => text === ANSWER).length,
    refused: log.filter((text) => text.includes('Недостаточно кредитов')).length,
    broken: log.filter((text) => FAILURES.some((failure) => text.includes(failure))).length,
  });
  const done = (log) => {
    const { answered, refused, broken } = outcomes(log);
    return answered + refused + broken >= perUser;
  };
  await settle(telegram, people, done, 'every answer or refusal');
  const elapsed = (performance.now() - start) / 1000;

  const seen = people
    .map((person) => outcomes(logOf(telegram, person.id)))
    .reduce((sum, one) => ({
      answered: sum.answered + one.answered,
      refused: sum.refused + one.refused,
      broken: sum.broken + one.broken,
    }));
  const cpu = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, (cpuMs(pid) - cpuBefore[name]) / seen.answered]),
  );
  const firstEdit = [];
  const placeholder = [];
  let begun = 0;
  for (const person of people) {
    const after = telegram.calls.slice(marks.get(person.id)).filter((c) => Number(c.params.chat_id) === person.id);
    const at = (predicate) => after.find(predicate)?.at;
    const sent = performance.timeOrigin + sentAt.get(person.id);
    const isPlaceholder = (c) => c.method === 'sendMessage' && c.params.text === '⏳ Думаю…';
    begun += after.filter(isPlaceholder).length;
    const shown = at(isPlaceholder);
    const edited = at((c) => c.method === 'editMessageText');
    if (shown) placeholder.push(shown - sent);
    if (edited) firstEdit.push(edited - sent);
  }
  return { ...seen, begun, elapsed, cpu, placeholder, firstEdit };
}

/** What the bot shows a user, its texts in order. */
function logOf(telegram, chatId) {
  return telegram
    .chatLog(chatId)
    .filter((entry) => entry.from === 'bot')
    .map((entry) => entry.text);
}

/** Polls the chats until every user's log satisfies `ready`; fails at once when one was told of a failure. */
async function settle(telegram, people, ready, what) {
  const deadline = performance.now() + SETTLE_MS;
  while (!people.every((person) => ready(logOf(telegram, person.id)))) {
    const failed = people.filter((person) =>
      logOf(telegram, person.id).some((text) => FAILURES.some((failure) => text.includes(failure))),
    );
    if (failed.length > 0) {
      const example = logOf(telegram, failed[0].id).map((text) => text.slice(0, 60));
      throw new Error(
        `${failed.length} users were told of a failure while waiting for ${what}: ${JSON.stringify(example)}`,
      );
    }
    if (performance.now() > deadline) {
      const waiting = people.filter((person) => !ready(logOf(telegram, person.id)));
      const example = waiting[0] && logOf(telegram, waiting[0].id).map((text) => text.slice(0, 60));
      throw new Error(
        `${waiting.length} users did not get ${what} in ${SETTLE_MS / 1000} s; one of them saw: ${JSON.stringify(example)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
