import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  YookassaCreatePaymentRequest,
  YookassaCreateRefundRequest,
  type YookassaPayment,
  type YookassaRefund,
} from '@gpt/contracts';
import { readRequestBody, sendJson } from '@gpt/kit/testing';

export const FAKE_SHOP_ID = '123456';
export const FAKE_SECRET_KEY = 'test_secret_key_0123456789';

/** A request the fake received, for asserting on the protocol billing speaks. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** What the next create calls do: answer normally, or create and then fail as a flaky network would. */
type CreateFault = 'ok' | 'created-then-500' | 'created-then-drop' | 'refuse-400';

/**
 * A stand-in for YooKassa API v3 on localhost: Basic auth, Idempotence-Key on POST, create / get /
 * capture payments, refunds, the provider's error body, and notifications sent to a webhook URL. The test
 * plays the payer and the provider's back office (succeed, cancel) through its methods.
 */
export class FakeYookassa {
  readonly payments = new Map<string, YookassaPayment>();
  /** Refunds by id, each with the body it was asked with. */
  readonly refunds = new Map<string, YookassaRefund & { request: YookassaCreateRefundRequest }>();
  private readonly refundByIdempotenceKey = new Map<string, string>();
  /** Set: the next refund requests are refused with this 400 description. */
  refuseRefunds: string | null = null;
  /** Set: the next refund requests are carried out, but each answer is lost (a 500 instead). */
  lostRefundAnswers = 0;
  readonly requests: RecordedRequest[] = [];
  private readonly byIdempotenceKey = new Map<string, string>();
  private faults: CreateFault[] = [];
  /** Cards saved for autopayments, by payment method id. */
  readonly savedMethods = new Map<string, { last4: string }>();
  /** Payments created with `save_payment_method: true`: their card is saved when they succeed. */
  private readonly savingPayments = new Set<string>();
  /** Reasons the next autopayments of a saved card are declined with, in order (`insufficient_funds`, …). */
  private readonly declines = new Map<string, string[]>();
  private server: Server | null = null;
  url = '';
  private port = 0;

  /** Listens on a free port; started again after stop(), on the same one (the provider is back). */
  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.handle(req, res).catch((err: unknown) =>
        sendJson(res, 500, { type: 'error', description: String(err) }),
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}/v3`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The next create calls misbehave in this order, then all is normal again. */
  failNextCreates(...faults: CreateFault[]): void {
    this.faults.push(...faults);
  }

  requestsTo(method: string, pathPrefix: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix));
  }

  /** A payment of the shop billing never created (what a forger could make and pay). */
  addPayment(fields: Partial<YookassaPayment> & Pick<YookassaPayment, 'amount'>): YookassaPayment {
    const payment: YookassaPayment = {
      id: randomUUID(),
      status: 'pending',
      paid: false,
      created_at: new Date().toISOString(),
      test: true,
      ...fields,
    };
    this.payments.set(payment.id, payment);
    return payment;
  }

  /** The next autopayments of the saved card are declined with these reasons, in order. */
  declineNextCharges(methodId: string, ...reasons: string[]): void {
    this.declines.set(methodId, [...(this.declines.get(methodId) ?? []), ...reasons]);
  }

  /** The autopayments made of a saved card (payments created with its `payment_method_id`). */
  chargesOf(methodId: string): YookassaPayment[] {
    return this.requestsTo('POST', '/payments')
      .filter((r) => (r.body as { payment_method_id?: string }).payment_method_id === methodId)
      .map((r) => this.byIdempotenceKey.get(String(r.headers['idempotence-key'])))
      .filter((id, index, ids): id is string => id !== undefined && ids.indexOf(id) === index)
      .map((id) => this.payments.get(id)!);
  }

  /**
   * The payer paid: the payment is succeeded (capture: true). Asked to save the method, YooKassa saves the card
   * and says so in `payment_method`; otherwise the method is there, not saved.
   */
  succeed(id: string, last4 = '4444'): YookassaPayment {
    const saved = this.savingPayments.has(id);
    const method = {
      type: 'bank_card',
      id: saved ? randomUUID() : `unsaved-${id}`,
      saved,
      title: `Bank card *${last4}`,
    };
    if (saved) this.savedMethods.set(method.id, { last4 });
    return this.update(id, {
      status: 'succeeded',
      paid: true,
      captured_at: new Date().toISOString(),
      payment_method: { ...method, card: { first6: '555555', last4, expiry_month: '12', expiry_year: '2030' } },
    });
  }

  /** The payer paid and the shop still has to capture. */
  waitForCapture(id: string): YookassaPayment {
    return this.update(id, { status: 'waiting_for_capture', paid: true });
  }

  cancel(id: string, reason = 'insufficient_funds', party = 'payment_network'): YookassaPayment {
    return this.update(id, { status: 'canceled', paid: false, cancellation_details: { party, reason } });
  }

  /** Sends a notification as YooKassa does: `{ type, event, object }` POSTed as JSON. */
  async notify(webhookUrl: string, id: string, event = 'payment.succeeded', object?: object): Promise<Response> {
    const payment = object ?? this.payments.get(id) ?? { id, status: 'succeeded' };
    return fetch(webhookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'notification', event, object: payment }),
    });
  }

  private update(id: string, fields: Partial<YookassaPayment>): YookassaPayment {
    const payment = this.payments.get(id);
    if (!payment) throw new Error(`fake YooKassa has no payment ${id}`);
    const updated = { ...payment, ...fields };
    this.payments.set(id, updated);
    return updated;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readRequestBody(req);
    const body: unknown = raw ? JSON.parse(raw) : undefined;
    const path = (req.url ?? '').replace(/^\/v3/, '');
    this.requests.push({ method: req.method ?? '', path, headers: req.headers, body });

    const expected = `Basic ${Buffer.from(`${FAKE_SHOP_ID}:${FAKE_SECRET_KEY}`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      sendJson(res, 401, { type: 'error', code: 'invalid_credentials', description: 'Basic auth failed' });
      return;
    }
    const key = req.headers['idempotence-key'];
    if (req.method === 'POST' && typeof key !== 'string') {
      sendJson(res, 400, { type: 'error', code: 'invalid_request', description: 'Idempotence-Key is required' });
      return;
    }

    const capture = /^\/payments\/([^/]+)\/capture$/.exec(path);
    const single = /^\/payments\/([^/]+)$/.exec(path);
    const url = new URL(path, 'http://yookassa.local');
    if (req.method === 'GET' && url.pathname === '/payments') this.list(res, url, [...this.payments.values()]);
    else if (req.method === 'GET' && url.pathname === '/refunds') {
      this.list(
        res,
        url,
        [...this.refunds.values()].map(({ request: _request, ...refund }) => refund),
      );
    } else if (req.method === 'POST' && path === '/payments') this.create(res, String(key), body);
    else if (req.method === 'POST' && path === '/refunds') this.refund(res, String(key), body);
    else if (req.method === 'GET' && single) this.answerPayment(res, decodeURIComponent(single[1]!));
    else if (req.method === 'POST' && capture) {
      const id = decodeURIComponent(capture[1]!);
      if (this.payments.get(id)?.status === 'waiting_for_capture') this.succeed(id);
      this.answerPayment(res, id);
    } else sendJson(res, 404, { type: 'error', code: 'not_found', description: 'No such endpoint' });
  }

  /** YooKassa's lists: newest first, `created_at.gte`, `limit` a page, `next_cursor` while more are left. */
  private list(res: ServerResponse, url: URL, items: { created_at: string }[]): void {
    const since = url.searchParams.get('created_at.gte');
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const from = Number(url.searchParams.get('cursor') ?? 0);
    const matching = items
      .filter((item) => !since || item.created_at >= since)
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
    const page = matching.slice(from, from + limit);
    const more = from + limit < matching.length;
    sendJson(res, 200, { type: 'list', items: page, ...(more ? { next_cursor: String(from + limit) } : {}) });
  }

  private create(res: ServerResponse, key: string, body: unknown): void {
    const fault = this.faults.shift() ?? 'ok';
    if (fault === 'refuse-400') {
      sendJson(res, 400, { type: 'error', code: 'invalid_request', description: 'receipt is invalid' });
      return;
    }
    const parsed = YookassaCreatePaymentRequest.safeParse(body);
    if (!parsed.success) {
      sendJson(res, 400, { type: 'error', code: 'invalid_request', description: parsed.error.message });
      return;
    }
    let id = this.byIdempotenceKey.get(key);
    const methodId = parsed.data.payment_method_id;
    if (!id && methodId !== undefined) {
      const method = this.savedMethods.get(methodId);
      if (!method) {
        sendJson(res, 400, { type: 'error', code: 'invalid_request', description: 'payment_method_id is unknown' });
        return;
      }
      id = this.chargeSaved(parsed.data, methodId, method.last4);
      this.byIdempotenceKey.set(key, id);
    }
    if (!id) {
      const request = parsed.data;
      id = randomUUID();
      if (request.save_payment_method) this.savingPayments.add(id);
      this.payments.set(id, {
        id,
        status: 'pending',
        paid: false,
        amount: request.amount,
        description: request.description,
        metadata: request.metadata,
        confirmation: { type: 'redirect', confirmation_url: `https://yoomoney.fake/checkout?orderId=${id}` },
        created_at: new Date().toISOString(),
        test: true,
      });
      this.byIdempotenceKey.set(key, id);
    }
    if (fault === 'created-then-500') sendJson(res, 500, { type: 'error', code: 'internal_server_error' });
    else if (fault === 'created-then-drop') res.socket?.destroy();
    else this.answerPayment(res, id);
  }

  /**
   * An autopayment: the saved card is charged at once, with no confirmation — succeeded, or canceled with the
   * decline the test asked for (`permission_revoked` by YooKassa itself, the others by the card's network).
   */
  private chargeSaved(request: YookassaCreatePaymentRequest, methodId: string, last4: string): string {
    const id = randomUUID();
    const decline = this.declines.get(methodId)?.shift();
    const common = {
      id,
      amount: request.amount,
      description: request.description,
      metadata: request.metadata,
      payment_method: { type: 'bank_card', id: methodId, saved: true, title: `Bank card *${last4}` },
      created_at: new Date().toISOString(),
      test: true,
    };
    const party = decline === 'permission_revoked' ? 'yoo_money' : 'payment_network';
    this.payments.set(
      id,
      decline
        ? { ...common, status: 'canceled', paid: false, cancellation_details: { party, reason: decline } }
        : { ...common, status: 'succeeded', paid: true, captured_at: new Date().toISOString() },
    );
    return id;
  }

  /** YooKassa's refund: of a succeeded payment, at most its amount, one refund per Idempotence-Key. */
  private refund(res: ServerResponse, key: string, body: unknown): void {
    const parsed = YookassaCreateRefundRequest.safeParse(body);
    if (!parsed.success) {
      sendJson(res, 400, { type: 'error', code: 'invalid_request', description: parsed.error.message });
      return;
    }
    const known = this.refundByIdempotenceKey.get(key);
    if (known) return this.answerRefund(res, this.refunds.get(known));
    const payment = this.payments.get(parsed.data.payment_id);
    const refunded = [...this.refunds.values()].some((r) => r.payment_id === parsed.data.payment_id);
    const problem =
      this.refuseRefunds ??
      (payment?.status !== 'succeeded'
        ? 'payment is not succeeded'
        : refunded || parsed.data.amount.value !== payment.amount.value
          ? 'refund amount exceeds the refundable amount'
          : null);
    if (problem) {
      sendJson(res, 400, { type: 'error', code: 'invalid_request', description: problem });
      return;
    }
    const refund = {
      id: randomUUID(),
      payment_id: parsed.data.payment_id,
      status: 'succeeded' as const,
      amount: parsed.data.amount,
      created_at: new Date().toISOString(),
      request: parsed.data,
    };
    this.refunds.set(refund.id, refund);
    this.refundByIdempotenceKey.set(key, refund.id);
    const { request: _request, ...answer } = refund;
    this.answerRefund(res, answer);
  }

  private answerRefund(res: ServerResponse, answer: unknown): void {
    if (this.lostRefundAnswers > 0) {
      this.lostRefundAnswers--;
      sendJson(res, 500, { type: 'error', code: 'internal_server_error' });
    } else sendJson(res, 200, answer);
  }

  private answerPayment(res: ServerResponse, id: string): void {
    const payment = this.payments.get(id);
    if (payment) sendJson(res, 200, payment);
    else sendJson(res, 404, { type: 'error', id: randomUUID(), code: 'not_found', description: 'Payment not found' });
  }
}
