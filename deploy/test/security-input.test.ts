import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { TOP_UP_PACKAGES } from '@gpt/contracts';
import { buildOpenApiDocument } from '@gpt/contracts/openapi';
import { callApi, setWelcomeCredits, signUp, startTestStack, type TestStack } from '@gpt/deploy/testing';
import { uniqueName } from '@gpt/kit/testing';
import { eventually } from './support/async';
import {
  BOT_KEY,
  type CallOptions,
  type Case,
  concretePath,
  type JsonSchema,
  type Operation,
  operationsOf,
  problemsOf,
  rawRequest,
  refusalProblem,
  SECURITY_ENV,
  type Session,
} from './support/security';

/**
 * Hostile input on every write route of the OpenAPI document, through the real gateway and
 * services: broken JSON, wrong types, missing fields, huge bodies, SQL injection and XSS payloads.
 */
const operations = operationsOf(buildOpenApiDocument());
const writeOps = operations.filter((op) => op.method !== 'GET');
const routeOf = (op: Operation) => `${op.method} ${op.path}`;

const SQL_PAYLOADS = ["x' OR '1'='1' --", "'); DROP TABLE users; --"];
const XSS_PAYLOADS = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '"><svg onload=alert(1)>'];
const PAYLOADS = [...SQL_PAYLOADS, ...XSS_PAYLOADS.slice(0, 2), 'javascript:alert(1)', 'nul\u0000byte'];
/** Numbers a database column may not hold, or JSON cannot carry exactly. */
const EDGE_NUMBERS = [2_147_483_648, Number.MAX_SAFE_INTEGER + 1, 1e300, 1.5];
/** Fields whose text is HTML by design: stored sanitized, not verbatim. */
const HTML_FIELDS = new Set(['content']);
const TWO_MB = 2 * 1024 * 1024;

let stack: TestStack;
let admin: Session;
let user: Session;
/** Things the sample requests point at, made once. */
const fx = {
  telegramId: 0,
  editedUserId: 0,
  deletableUserId: 0,
  articleId: 0,
  categoryId: 0,
  tagId: 0,
  tariffId: 0,
  promoCodeId: 0,
  promoCode: '',
  modelId: 0,
  modelName: '',
  modeId: 0,
  sysValKey: '',
  paymentId: '',
  emailPaymentId: '',
  supportRequestId: 0,
  broadcastId: 0,
};

beforeAll(async () => {
  stack = await startTestStack({
    ...SECURITY_ENV,
    RATE_LIMIT_FEEDBACK_POINTS: '100000',
    RATE_LIMIT_PASSWORD_RESET_POINTS: '100000',
    TELEGRAM_SANDBOX_NEW_USERS_PER_MINUTE: '100000',
  });
  // No welcome grant: it reaches a new account's balance a moment after sign-up, which would look like a change here.
  await setWelcomeCredits(stack, 0);
  admin = await loginAdmin();
  user = await signUp(stack.url);
  /** The answer of a write that must work, as the given shape. */
  const made = async <T>(method: string, path: string, options: CallOptions) => {
    const res = await api<T>(method, path, options);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const asAdmin = (body: object) => ({ token: admin.token, body });
  type Made = { id: number };

  fx.telegramId = freshTelegramId();
  await made('POST', '/api/bot/users', { botKey: BOT_KEY, body: { telegram_id: fx.telegramId } });
  fx.editedUserId = (await signUp(stack.url)).id;
  fx.deletableUserId = (await signUp(stack.url)).id;
  const taxonomy = { name: 'Безопасность', slug: slug() };
  fx.categoryId = (
    await made<{ category: Made }>('POST', '/api/admin/article_categories', asAdmin(taxonomy))
  ).category.id;
  fx.tagId = (
    await made<{ tag: Made }>('POST', '/api/admin/article_tags', asAdmin({ ...taxonomy, slug: slug() }))
  ).tag.id;
  fx.articleId = (await made<{ article: Made }>('POST', '/api/admin/articles', asAdmin(articleBody()))).article.id;
  fx.tariffId = (await made<{ tariff: Made }>('POST', '/api/admin/tariffs', asAdmin(tariffBody()))).tariff.id;
  const promo = await made<{ promo_code: Made & { code: string } }>(
    'POST',
    '/api/admin/promo-codes',
    asAdmin(promoBody()),
  );
  fx.promoCodeId = promo.promo_code.id;
  fx.promoCode = promo.promo_code.code;
  const { model } = await made<{ model: Made & { model: string } }>('POST', '/api/admin/models', asAdmin(modelBody()));
  fx.modelId = model.id;
  fx.modelName = model.model;
  fx.modeId = (await made<{ mode: Made }>('POST', '/api/admin/modes', asAdmin(modeBody()))).mode.id;
  fx.sysValKey = uniqueName('sec_key');
  await made('POST', '/api/admin/sys_vals', asAdmin({ key: fx.sysValKey, value: '1' }));
  const topUp = { token: user.token, body: { amount: '100.00' } };
  fx.paymentId = (await made<{ payment_id: string }>('POST', '/api/billing/payments', topUp)).payment_id;
  // Without an e-mail the bot's payment waits for one (pending_email).
  const botTopUp = { botKey: BOT_KEY, body: { telegram_id: fx.telegramId, amount: '100.00' } };
  fx.emailPaymentId = (await made<{ payment_id: string }>('POST', '/api/bot/payments', botTopUp)).payment_id;
  const feedback = { telegram: '@security', subject: uniqueName('Обращение'), message: 'Текст обращения' };
  await made('POST', '/api/feedback', { body: feedback });
  const { data: requests } = await made<{ data: { id: number; subject: string }[] }>(
    'GET',
    '/api/admin/support-requests',
    { token: admin.token },
  );
  fx.supportRequestId = requests.find((request) => request.subject === feedback.subject)!.id;
  // Scheduled a year ahead: it never sends while the suite steers it.
  fx.broadcastId = (
    await made<{ data: Made }>('POST', '/api/admin/broadcasts', asAdmin({ ...broadcastBody(), send_at: nextYear() }))
  ).data.id;
}, 60_000);
afterAll(() => stack?.close());

const api = <T = Record<string, unknown>>(method: string, path: string, options?: CallOptions) =>
  callApi<T>(stack.url, method, path, options);

const freshTelegramId = () => randomInt(1_000_000, 2 ** 47);
/** The user's current web chat conversation («Новый чат» gives it, or a new one). */
const conversationId = async () =>
  (await api<{ id: string }>('POST', '/api/chat/conversations', { token: user.token, body: {} })).body.id;
const slug = () => uniqueName('sec').replace(/_/g, '-');
const freshEmail = () => `${uniqueName('sec')}@example.com`;
const articleBody = () => ({
  title: 'Статья о безопасности',
  slug: slug(),
  content: '<p>Текст <strong>статьи</strong></p>',
  excerpt: 'Кратко',
  meta_title: 'Заголовок',
  meta_description: 'Описание',
  meta_keywords: 'безопасность',
  og_title: 'OG',
  og_description: 'OG описание',
  status: 'published',
});
const tariffBody = () => ({ name: uniqueName('Тариф'), description: 'Описание', monthly_price: '100.00' });
/** A broadcast to a segment nobody is in. */
const broadcastBody = () => ({
  content: { text: '**Проверка** рассылки', photo_url: null, button: { kind: 'top_up' } },
  audience: { utm_source: 'security-nobody' },
});

const nextYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString();

const promoBody = () => ({
  code: uniqueName('SEC')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(-24),
  kind: 'credits',
  credits: 10,
  max_uses: 1000,
});
const modelBody = () => ({
  model: uniqueName('sec-model'),
  description: 'Модель',
  input_price_per_1m: '1.500000',
  output_price_per_1m: '2',
});
const modeBody = () => ({
  name: uniqueName('Режим'),
  emoji: '🛡',
  description: 'Проверка',
  system_prompt: 'Отвечай кратко.',
});
const taxonomyBody = (name: string) => ({ name, slug: slug(), description: 'Описание' });

/** The stack's admin is made at start; a fresh login gives the session. */
async function loginAdmin(): Promise<Session> {
  const res = await api<{ token: string; user: { id: number } }>('POST', '/api/auth/login', {
    body: { email: stack.admin.email, password: stack.admin.password },
  });
  expect(res.status).toBe(200);
  return { ...stack.admin, id: res.body.user.id, token: res.body.token };
}

interface Sample {
  params?: Record<string, string | number>;
  /** Instead of the session the route's security calls for. */
  token?: string;
  body?: Record<string, unknown>;
}

const NO_SUBSCRIPTION = 2_000_000_000;

/** A request each write route accepts; the cases below spoil one thing of it at a time. */
const SAMPLES: Record<string, () => Sample | Promise<Sample>> = {
  'POST /api/auth/login': () => ({ body: { email: user.email, password: user.password } }),
  'POST /api/auth/register': () => ({ body: { email: freshEmail(), password: 'password1', utm_source: 'security' } }),
  'POST /api/auth/password-reset': () => ({ body: { email: user.email } }),
  // A made-up token: the link is refused as unknown, whatever else the body holds.
  'POST /api/auth/password-reset/confirm': () => ({ body: { token: 'a'.repeat(43), newPassword: 'password2' } }),
  'POST /api/auth/change-password': async () => {
    // Each accepted change revokes the session: a new user every time.
    const someone = await signUp(stack.url);
    return { token: someone.token, body: { currentPassword: someone.password, newPassword: 'password2' } };
  },
  'POST /api/auth/link': () => ({ body: { token: 'no-such-link-token' } }),
  'POST /api/auth/link/preview': () => ({ body: { token: 'no-such-link-token' } }),
  // The user has no Telegram linked: nothing to unlink, nor to send reset links to.
  'DELETE /api/auth/link': () => ({}),
  'PUT /api/auth/profile/password-reset': () => ({ body: { telegram: false } }),
  'DELETE /api/admin/users/{id}/telegram': () => ({ params: { id: fx.editedUserId } }),
  'POST /api/admin/support-requests/{id}/done': () => ({ params: { id: fx.supportRequestId } }),
  'POST /api/admin/support-requests/{id}/answer': () => ({
    params: { id: fx.supportRequestId },
    body: { answer: 'Ответ на обращение' },
  }),
  // A new user each time: a second mail within the minute is refused.
  'POST /api/auth/email-confirmation': async () => ({ token: (await signUp(stack.url)).token }),
  // A made-up token: the link is refused as unknown.
  'POST /api/auth/email-confirmation/confirm': () => ({ body: { token: 'a'.repeat(43) } }),
  'POST /api/bot/users': () => ({
    body: { telegram_id: freshTelegramId(), username: 'sec', first_name: 'Иван', last_name: 'Петров', utm_source: 'x' },
  }),
  'POST /api/bot/link-tokens': () => ({ body: { telegram_id: fx.telegramId } }),
  'POST /api/bot/sign-in-links': () => ({ body: { telegram_id: fx.telegramId } }),
  // A made-up token: the link is refused as unknown.
  'POST /api/auth/telegram/sign-in-link': () => ({ body: { token: 'no-such-sign-in-token' } }),
  // No bot token in the stack: every widget sign-in is refused.
  'POST /api/auth/telegram/widget': () => ({
    body: { id: 42, first_name: 'Иван', auth_date: Math.floor(Date.now() / 1000), hash: 'a'.repeat(64) },
  }),
  'POST /api/chat/conversations': () => ({ body: {} }),
  'PATCH /api/chat/conversations/{id}': async () => ({
    params: { id: await conversationId() },
    body: { title: 'Чат' },
  }),
  'DELETE /api/chat/conversations/{id}': async () => ({ params: { id: await conversationId() } }),
  // The user has no credits: the question is refused (402), nothing is held or recorded.
  'POST /api/chat/conversations/{id}/messages': async () => ({
    params: { id: await conversationId() },
    body: { text: 'Привет' },
  }),
  'POST /api/chat/answers/{answerId}/stop': () => ({ params: { answerId: 'no-such-answer' } }),
  'PUT /api/chat/preferences': () => ({ body: { instructions: 'Кратко' } }),
  // The fixture's Telegram user has not blocked the bot: reporting so changes nothing.
  'PUT /api/bot/users/{telegram_id}/blocked': () => ({
    params: { telegram_id: fx.telegramId },
    body: { blocked: false },
  }),
  'PUT /api/admin/users/{id}': () => ({ params: { id: fx.editedUserId }, body: { email: freshEmail() } }),
  'DELETE /api/admin/users/{id}': () => ({ params: { id: fx.deletableUserId } }),
  'POST /api/feedback': () => ({ body: { telegram: '@security', subject: 'Вопрос', message: 'Текст сообщения' } }),
  'POST /api/admin/articles': () => ({ body: articleBody() }),
  'PUT /api/admin/articles/{id}': () => ({ params: { id: fx.articleId }, body: articleBody() }),
  'DELETE /api/admin/articles/{id}': () => ({ params: { id: fx.articleId } }),
  // The image comes as multipart/form-data only: every JSON body, however spoiled, is a 415 with a message.
  'POST /api/admin/article_media': () => ({ body: { image: 'not a file' } }),
  'POST /api/admin/article_categories': () => ({ body: taxonomyBody('Категория') }),
  'PUT /api/admin/article_categories/{id}': () => ({
    params: { id: fx.categoryId },
    body: { ...taxonomyBody('Категория'), meta_title: 'Заголовок', meta_description: 'Описание' },
  }),
  'DELETE /api/admin/article_categories/{id}': () => ({ params: { id: fx.categoryId } }),
  'POST /api/admin/article_tags': () => ({ body: taxonomyBody('Тег') }),
  'PUT /api/admin/article_tags/{id}': () => ({ params: { id: fx.tagId }, body: taxonomyBody('Тег') }),
  'DELETE /api/admin/article_tags/{id}': () => ({ params: { id: fx.tagId } }),
  'POST /api/billing/payments': () => ({ body: { amount: '100.00' } }),
  'POST /api/billing/sandbox/payments/{id}/decision': () => ({
    params: { id: fx.paymentId },
    body: { decision: 'canceled' },
  }),
  'POST /api/billing/webhooks/yookassa': () => ({
    body: { type: 'notification', event: 'payment.succeeded', object: { id: 'no-such-payment', status: 'succeeded' } },
  }),
  'POST /api/admin/tariffs': () => ({ body: tariffBody() }),
  'PUT /api/admin/tariffs/{id}': () => ({ params: { id: fx.tariffId }, body: tariffBody() }),
  'DELETE /api/admin/tariffs/{id}': () => ({ params: { id: fx.tariffId } }),
  'POST /api/admin/promo-codes': () => ({ body: promoBody() }),
  'POST /api/admin/broadcasts': () => ({ body: { ...broadcastBody(), send_at: nextYear() } }),
  'POST /api/admin/broadcasts/count': () => ({ body: { audience: { utm_source: 'security' } } }),
  'POST /api/admin/broadcasts/preview': () => ({ body: broadcastBody().content }),
  // The admin has no Telegram linked: refused with what to do.
  'POST /api/admin/broadcasts/test': () => ({ body: broadcastBody().content }),
  'GET /api/admin/broadcasts/{id}': () => ({ params: { id: fx.broadcastId } }),
  'POST /api/admin/broadcasts/{id}/pause': () => ({ params: { id: fx.broadcastId } }),
  'POST /api/admin/broadcasts/{id}/resume': () => ({ params: { id: fx.broadcastId } }),
  'POST /api/admin/broadcasts/{id}/cancel': () => ({ params: { id: fx.broadcastId } }),
  'POST /api/bot/broadcast-recipients': () => ({ body: { utm_source: 'security' } }),
  'GET /api/bot/users/{telegram_id}/news': () => ({ params: { telegram_id: fx.telegramId } }),
  'PUT /api/bot/users/{telegram_id}/news': () => ({ params: { telegram_id: fx.telegramId }, body: { news: true } }),
  'PUT /api/auth/profile/news': () => ({ body: { news: true } }),
  'PUT /api/admin/promo-codes/{id}': () => ({
    params: { id: fx.promoCodeId },
    body: { ...promoBody(), code: fx.promoCode },
  }),
  'DELETE /api/admin/promo-codes/{id}': () => ({ params: { id: fx.promoCodeId } }),
  'POST /api/billing/promo-codes/redeem': () => ({ body: { code: fx.promoCode } }),
  'POST /api/bot/promo-codes/redeem': () => ({ body: { telegram_id: fx.telegramId, code: fx.promoCode } }),
  // A pending payment: its refund is refused (only succeeded payments are refunded).
  'POST /api/admin/payments/{id}/refund': () => ({ params: { id: fx.paymentId }, body: { reason: 'Проверка' } }),
  // Compares with the providers and reports; it takes no input.
  'POST /api/admin/reconciliation': () => ({}),
  // A subscription nobody has: cancelling, removing its card, renewing or resuming it is 404.
  'DELETE /api/billing/subscriptions/{id}': () => ({ params: { id: NO_SUBSCRIPTION } }),
  'DELETE /api/billing/subscriptions/{id}/card': () => ({ params: { id: NO_SUBSCRIPTION } }),
  'POST /api/bot/subscriptions/{id}/cancel': () => ({
    params: { id: NO_SUBSCRIPTION },
    body: { telegram_id: fx.telegramId },
  }),
  'POST /api/bot/subscriptions/{id}/resume': () => ({
    params: { id: NO_SUBSCRIPTION },
    body: { telegram_id: fx.telegramId },
  }),
  'POST /api/admin/subscriptions/{id}/renew': () => ({ params: { id: NO_SUBSCRIPTION }, body: { reason: 'Проверка' } }),
  'POST /api/admin/subscriptions/{id}/cancel': () => ({
    params: { id: NO_SUBSCRIPTION },
    body: { reason: 'Проверка' },
  }),
  'POST /api/bot/stars/invoices': () => ({ body: { telegram_id: fx.telegramId, amount: TOP_UP_PACKAGES[0] } }),
  // An invoice payload billing never issued: declined.
  'POST /api/bot/stars/pre-checkout': () => ({
    body: { telegram_id: fx.telegramId, invoice_payload: randomUUID(), currency: 'XTR', total_amount: 67 },
  }),
  'POST /api/bot/stars/payments': () => ({
    body: {
      telegram_id: fx.telegramId,
      invoice_payload: randomUUID(),
      currency: 'XTR',
      total_amount: 67,
      telegram_payment_charge_id: uniqueName('charge'),
    },
  }),
  'POST /api/bot/payments': () => ({
    body: { telegram_id: fx.telegramId, amount: '100.00', email: 'buyer@example.com' },
  }),
  'PATCH /api/bot/payments/{id}/email': () => ({
    params: { id: fx.emailPaymentId },
    body: { email: 'buyer@example.com' },
  }),
  // The fixture's Telegram user has nothing to hold: 402, and releasing an unknown hold is 404.
  'POST /api/bot/holds': () => ({ body: { telegram_id: fx.telegramId, amount: 100 } }),
  'DELETE /api/bot/holds/{id}': () => ({ params: { id: randomUUID() } }),
  'POST /api/admin/models': () => ({ body: modelBody() }),
  'PUT /api/admin/models/{id}': () => ({ params: { id: fx.modelId }, body: { ...modelBody(), model: fx.modelName } }),
  'DELETE /api/admin/models/{id}': () => ({ params: { id: fx.modelId } }),
  'POST /api/admin/modes': () => ({ body: modeBody() }),
  'PUT /api/admin/modes/{id}': () => ({ params: { id: fx.modeId }, body: modeBody() }),
  'DELETE /api/admin/modes/{id}': () => ({ params: { id: fx.modeId } }),
  'POST /api/admin/sys_vals': () => ({ body: { key: uniqueName('sec_key'), value: 'значение' } }),
  'PUT /api/admin/sys_vals/{key}': () => ({ params: { key: fx.sysValKey }, body: { value: 'значение' } }),
  'DELETE /api/admin/sys_vals/{key}': () => ({ params: { key: fx.sysValKey } }),
  // Telegram is off in this stack (no token): the webhook refuses every update with 401.
  'POST /api/telegram/webhook': () => ({ body: { update_id: 1 } }),
  // …so the bot runs on its Telegram sandbox: a browser gets its user there, and without that user's
  // cookie the chat routes answer 401 whatever the body.
  'POST /api/telegram/sandbox/session': () => ({ body: { first_name: 'Иван', fresh: true } }),
  'POST /api/telegram/sandbox/chat/messages': () => ({ body: { text: 'Привет' } }),
  // No invoice with this id in the chat: 404.
  'POST /api/telegram/sandbox/chat/payments': () => ({ body: { message_id: 1 } }),
  'POST /api/telegram/sandbox/chat/uploads': () => ({
    body: {
      kind: 'document',
      file_name: 'note.txt',
      mime_type: 'text/plain',
      data: Buffer.from('текст').toString('base64'),
      caption: 'Что здесь?',
    },
  }),
  'POST /api/telegram/sandbox/chat/buttons': () => ({ body: { message_id: 1, data: 'menu:balance' } }),
  'POST /api/bot/messages': () => ({
    body: {
      telegram_id: fx.telegramId,
      model: fx.modelName,
      user_message: 'Привет',
      bot_response: 'Здравствуйте',
      input_tokens: 10,
      output_tokens: 20,
    },
  }),
};

/** A hostile value put in a body field (or a path parameter, without `field`). */
interface HostileCase extends Case {
  field?: string;
  value: unknown;
}

async function sampleOf(op: Operation): Promise<{ sample: Sample; auth: CallOptions }> {
  const make = SAMPLES[routeOf(op)];
  if (!make) throw new Error(`no sample request for ${routeOf(op)}: add one to SAMPLES`);
  const sample = await make();
  const token = sample.token ?? (op.path.startsWith('/api/admin/') ? admin.token : user.token);
  const auth = op.security === 'bot' ? { botKey: BOT_KEY } : op.security === 'bearer' ? { token } : {};
  return { sample, auth };
}

const typesOf = (schema: JsonSchema): string[] =>
  schema.anyOf ? schema.anyOf.flatMap(typesOf) : [schema.type ?? []].flat();

/** A value of a type the field does not take (an operator object where a scalar is due). */
const wrongValueFor = (schema: JsonSchema): unknown =>
  typesOf(schema).includes('object') ? 'not-an-object' : { $gt: '' };

/** Requests every write route must refuse, and refuse without changing anything. */
async function refusedCases(op: Operation): Promise<Case[]> {
  const { sample, auth } = await sampleOf(op);
  const base = { method: op.method, path: concretePath(op, sample.params) };
  const withBody = (label: string, body: unknown): Case => ({ ...base, label, options: { ...auth, body } });
  const cases: Case[] = [
    { ...base, label: 'malformed JSON', options: { ...auth, rawBody: '{"broken": ' } },
    withBody('a 2 MB body', { ...sample.body, padding: 'x'.repeat(TWO_MB) }),
  ];
  if (op.body) {
    cases.push({ ...base, label: 'a list instead of an object', options: { ...auth, rawBody: '[]' } });
    for (const [field, schema] of Object.entries(op.body.properties ?? {})) {
      const wrong = wrongValueFor(schema);
      cases.push(withBody(`${field} = ${JSON.stringify(wrong)}`, { ...sample.body, [field]: wrong }));
    }
    for (const field of op.body.required ?? []) {
      const { [field]: _missing, ...body } = sample.body ?? {};
      cases.push(withBody(`${field} missing`, body));
    }
  }
  for (const param of op.pathParams.filter((p) => p.schema.type === 'integer')) {
    for (const wrong of ['abc', '0', '-1', '1.5']) {
      const path = concretePath(op, { ...sample.params, [param.name]: wrong });
      cases.push({ ...base, path, label: `${param.name} = ${wrong}`, options: { ...auth, body: sample.body } });
    }
  }
  return cases;
}

/** Hostile values in every field that takes text, and odd integers in every one that takes numbers. */
async function hostileCases(op: Operation): Promise<HostileCase[]> {
  const cases: HostileCase[] = [];
  for (const [field, schema] of Object.entries(op.body?.properties ?? {})) {
    const types = typesOf(schema);
    const numeric = types.includes('integer') || types.includes('number');
    const values = [
      ...(types.includes('string') ? PAYLOADS : []),
      ...(numeric ? EDGE_NUMBERS : []),
      ...(schema.items?.type === 'integer' ? EDGE_NUMBERS.map((n) => [n]) : []),
    ];
    for (const value of values) {
      const { sample, auth } = await sampleOf(op);
      cases.push({
        label: `${field} = ${JSON.stringify(value)}`,
        method: op.method,
        path: concretePath(op, sample.params),
        options: { ...auth, body: { ...sample.body, [field]: value } },
        field,
        value,
      });
    }
  }
  for (const param of op.pathParams) {
    for (const value of [...SQL_PAYLOADS, XSS_PAYLOADS[0]!, '2147483648']) {
      const { sample, auth } = await sampleOf(op);
      cases.push({
        label: `${param.name} = ${JSON.stringify(value)}`,
        method: op.method,
        path: concretePath(op, { ...sample.params, [param.name]: value }),
        options: { ...auth, body: sample.body },
        value,
      });
    }
  }
  return cases;
}

/** What the admin screens show of everything: every admin list, read once. */
async function everything(): Promise<string> {
  const lists = operations.filter(
    (op) =>
      op.method === 'GET' &&
      op.path.startsWith('/api/admin/') &&
      op.pathParams.length === 0 &&
      !op.path.startsWith('/api/admin/stats'),
  );
  const answers = await Promise.all(lists.map((op) => api('GET', op.path, { token: admin.token })));
  return JSON.stringify(answers.map((res, i) => [lists[i]!.path, res.status, res.body]));
}

/**
 * Reads everything until it stays the same for STILL_READS reads in a row, 400 ms apart: events of
 * earlier writes (a new user's tariff reaching auth, say) may still be landing, later under load.
 */
async function settledEverything(): Promise<string> {
  const STILL_READS = 4;
  let previous = await everything();
  let still = 1;
  for (let i = 0; i < 75 && still < STILL_READS; i++) {
    await new Promise((resolve) => setTimeout(resolve, 400));
    const current = await everything();
    still = current === previous ? still + 1 : 1;
    previous = current;
  }
  if (still < STILL_READS) throw new Error('the data never settled');
  return previous;
}

/** The first string under `key` in the answer, looking at shallower levels first. */
function findText(value: unknown, key: string): string | undefined {
  let level: unknown[] = [value];
  while (level.length > 0) {
    const next: unknown[] = [];
    for (const item of level) {
      if (item === null || typeof item !== 'object') continue;
      const record = item as Record<string, unknown>;
      if (!Array.isArray(item) && typeof record[key] === 'string') return record[key];
      next.push(...Object.values(record));
    }
    level = next;
  }
  return undefined;
}

/** The text fields the route's answer carries back as they were sent (the sample request tells). */
async function echoedFields(op: Operation): Promise<Set<string>> {
  const { sample, auth } = await sampleOf(op);
  const res = await api(op.method, concretePath(op, sample.params), { ...auth, body: sample.body });
  expect(res.status).toBeLessThan(500);
  return new Set(
    Object.entries(sample.body ?? {})
      .filter(([field, value]) => typeof value === 'string' && findText(res.body, field) === value)
      .map(([field]) => field),
  );
}

/** Markup that could run script: tags that load or run it, event handler attributes, script URLs in links. */
const INERT_HTML = /<(script|img|svg|iframe|object|embed)|\son\w+\s*=|(href|src)\s*=\s*["']?\s*javascript:/i;

describe('every write route of the OpenAPI document', () => {
  test('has a sample request here, so none escapes the checks below', () => {
    expect(writeOps.length).toBeGreaterThan(30);
    expect(writeOps.map(routeOf).filter((route) => !SAMPLES[route])).toEqual([]);
  });

  test('refuses malformed JSON, wrong types, missing fields, bad ids and a 2 MB body with a 4xx and a message, changing nothing', async () => {
    const cases = (await Promise.all(writeOps.map(refusedCases))).flat();
    const before = await settledEverything();
    const problems = await problemsOf(stack, cases, (res) =>
      refusalProblem(res, (status) => status >= 400 && status < 500),
    );
    expect(problems).toEqual([]);
    expect(await everything()).toBe(before);
  });

  test.each(writeOps.map(routeOf))(
    '%s: SQL injection, XSS and odd numbers are refused with a 4xx or stored as inert text',
    async (route) => {
      const op = writeOps.find((candidate) => routeOf(candidate) === route)!;
      const echoed = await echoedFields(op);
      const problems = await problemsOf(stack, await hostileCases(op), (res, c) => {
        if (res.status >= 400) return refusalProblem(res, (status) => status < 500);
        if (typeof c.value !== 'string' || !c.field || !echoed.has(c.field)) return undefined;
        const stored = findText(res.body, c.field);
        const inert = HTML_FIELDS.has(c.field) ? !INERT_HTML.test(stored ?? '') : stored === c.value;
        return inert ? undefined : `came back as ${JSON.stringify(stored)}`;
      });
      expect(problems).toEqual([]);
    },
  );
});

/** The credentials the route calls for: the admin's token under /api/admin/, the user's elsewhere, the bot key. */
const credentialsFor = (op: Operation): CallOptions =>
  op.security === 'bot'
    ? { botKey: BOT_KEY }
    : op.security === 'bearer'
      ? { token: op.path.startsWith('/api/admin/') ? admin.token : user.token }
      : {};

/** Escapes no decoder accepts: not hex, cut off, an encoded lone surrogate, an overlong slash. */
const BROKEN_ESCAPES = ['%ZZ', '%E0%A4%A', '%ED%A0%80', '%C0%AF'];
/** JSON nested far deeper than any request of ours: arrays, and objects. */
const DEEP_BODIES = ['['.repeat(5000) + ']'.repeat(5000), '{"a":'.repeat(2000) + '1' + '}'.repeat(2000)];
const isBadRequest = (res: { status: number; body: unknown }) => refusalProblem(res, (status) => status === 400);

describe('hostile encodings on every route: refused with the usual error body, never a 5xx', () => {
  test('a path with a broken percent-escape is 400 on every route of the OpenAPI document and on pages', async () => {
    const cases: Case[] = operations.flatMap((op) => {
      const options = credentialsFor(op);
      const base = concretePath(op);
      return BROKEN_ESCAPES.flatMap((escape) => [
        { method: op.method, path: `${base}${escape}`, label: `${escape} at the end`, options },
        ...op.pathParams.map((param) => ({
          method: op.method,
          path: op.path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === param.name ? escape : '1')),
          label: `${param.name} = ${escape}`,
          options,
        })),
      ]);
    });
    for (const page of ['/assets/', '/articles/', '/', '/api/docs/', '/api/']) {
      for (const escape of BROKEN_ESCAPES) cases.push({ method: 'GET', path: `${page}${escape}`, options: {} });
    }
    expect(await problemsOf(stack, cases, isBadRequest)).toEqual([]);
  });

  test('JSON nested thousands of levels deep is 400 on every write route', async () => {
    const cases: Case[] = writeOps.flatMap((op) =>
      DEEP_BODIES.map((rawBody, i) => ({
        method: op.method,
        path: concretePath(op),
        label: i === 0 ? 'deep arrays' : 'deep objects',
        options: { ...credentialsFor(op), rawBody },
      })),
    );
    expect(await problemsOf(stack, cases, isBadRequest)).toEqual([]);
  });

  test('a body that is not UTF-8 (UTF-16 with or without BOM, another charset) is 415 on every write route', async () => {
    // The body is refused before any route reads it, so any object will do.
    const json = JSON.stringify({ text: 'текст' });
    const bodies: [string, Buffer, Record<string, string>][] = [
      ['UTF-16 with BOM', Buffer.from(`\ufeff${json}`, 'utf16le'), {}],
      ['UTF-16 without BOM', Buffer.from(json, 'utf16le'), {}],
      ['charset=windows-1251', Buffer.from(json), { 'content-type': 'application/json; charset=windows-1251' }],
    ];
    const problems: string[] = [];
    for (const op of writeOps) {
      const { token, botKey } = credentialsFor(op);
      const headers: Record<string, string> = {};
      if (token) headers.Authorization = `Bearer ${token}`;
      if (botKey) headers['X-Bot-Key'] = botKey;
      for (const [label, body, extra] of bodies) {
        const res = await rawRequest(stack.url, op.method, concretePath(op), {
          body,
          headers: { ...headers, ...extra },
        });
        const problem = refusalProblem(res, (status) => status === 415);
        if (problem) problems.push(`${op.method} ${op.path} with ${label}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('stored text comes back inert', () => {
  test('an article made of payloads: the HTML is sanitized, the rest is the same text, the page escapes it', async () => {
    const [title, excerpt, description] = XSS_PAYLOADS;
    const body = {
      ...articleBody(),
      title,
      excerpt,
      meta_title: title,
      meta_description: description,
      content: `<p>Текст <strong>жирный</strong></p>${XSS_PAYLOADS.join('')}<a href="javascript:alert(1)">ссылка</a>`,
    };
    expect((await api('POST', '/api/admin/articles', { token: admin.token, body })).status).toBe(201);

    const read = await api<{ article: Record<string, string> }>('GET', `/api/articles/${body.slug}`);
    expect(read.status).toBe(200);
    expect(read.body.article).toMatchObject({ title, excerpt });
    expect(read.body.article.content).toContain('<strong>жирный</strong>');
    expect(read.body.article.content).not.toMatch(INERT_HTML);

    const page = await (await fetch(`${stack.url}/articles/${body.slug}`)).text();
    for (const payload of XSS_PAYLOADS) expect(page).not.toContain(payload);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  test('a bot user and message made of payloads come back as the same text in the admin screens', async () => {
    const model = await api<{ model: { model: string } }>('POST', '/api/admin/models', {
      token: admin.token,
      body: modelBody(),
    });
    expect(model.status).toBe(201);
    const telegramId = freshTelegramId();
    const names = {
      username: `${uniqueName('sec')}${SQL_PAYLOADS[0]}`,
      first_name: XSS_PAYLOADS[0],
      last_name: SQL_PAYLOADS[1],
    };
    const upsert = await api('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId, ...names },
    });
    expect(upsert.status).toBe(200);
    // Chat-history learns of the new user from auth's event.
    const message = await eventually(async () => {
      const res = await api<{ id: number }>('POST', '/api/bot/messages', {
        botKey: BOT_KEY,
        body: {
          telegram_id: telegramId,
          model: model.body.model.model,
          user_message: XSS_PAYLOADS[1],
          bot_response: SQL_PAYLOADS[1],
          input_tokens: 1,
          output_tokens: 1,
        },
      });
      expect(res.status).toBe(201);
      return res;
    }, 10_000);

    const history = await api('GET', `/api/admin/history/${message.body.id}`, { token: admin.token });
    expect(history.body).toMatchObject({ user_message: XSS_PAYLOADS[1], bot_response: SQL_PAYLOADS[1] });
    const users = await api<{ users: unknown[] }>(
      'GET',
      `/api/admin/users?username=${encodeURIComponent(names.username)}`,
      { token: admin.token },
    );
    expect(users.status).toBe(200);
    expect(users.body.users).toEqual([expect.objectContaining(names)]);
  });
});
