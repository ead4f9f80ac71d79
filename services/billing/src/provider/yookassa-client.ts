import { setTimeout as sleep } from 'node:timers/promises';
import {
  YookassaPayment,
  YookassaPaymentList,
  YookassaRefund,
  YookassaRefundList,
  type YookassaAmount,
  type YookassaCreatePaymentRequest,
  type YookassaCreateRefundRequest,
} from '@gpt/contracts';
import type { z } from 'zod';
import type { Logger } from '@gpt/kit';
import {
  ProviderError,
  type PaymentProvider,
  type ProviderPaymentRequest,
  type ProviderRefundRequest,
} from './provider';

export interface YookassaClientOptions {
  apiUrl: string;
  shopId: string;
  secretKey: string;
  timeoutMs: number;
  logger: Logger;
  /** Waits before attempts 2, 3, …; the last attempt's failure is final. */
  retryDelaysMs?: number[];
}

const RECEIPT_VAT_CODE = 1; // "без НДС": the seller is on a simplified tax system

/**
 * YooKassa API v3 over HTTPS: Basic auth with the shop id and secret key, JSON bodies, amounts as
 * strings. A POST carries an Idempotence-Key, so retrying after a timeout, a 5xx or the 202
 * "still processing" answer returns the same payment instead of creating another.
 */
export function yookassaClient(options: YookassaClientOptions): PaymentProvider {
  const authorization = `Basic ${Buffer.from(`${options.shopId}:${options.secretKey}`).toString('base64')}`;
  const retryDelaysMs = options.retryDelaysMs ?? [300, 1000];
  const logger = options.logger.child({ component: 'yookassa' });

  async function call<S extends z.ZodType = typeof YookassaPayment>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    idempotenceKey?: string,
    schema: S = YookassaPayment as unknown as S,
  ): Promise<z.output<S> | null> {
    const headers: Record<string, string> = { Authorization: authorization, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (idempotenceKey) headers['Idempotence-Key'] = idempotenceKey;
    for (let attempt = 0; ; attempt++) {
      let failure: ProviderError;
      try {
        const res = await fetch(`${options.apiUrl}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        const text = await res.text();
        if (res.status === 404 && method === 'GET') return null;
        if (res.ok && res.status !== 202) return parseObject(schema, text);
        failure = new ProviderError(
          `YooKassa ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`,
          res.status === 202 || res.status === 429 || res.status >= 500,
        );
      } catch (err) {
        if (err instanceof ProviderError) throw err;
        failure = new ProviderError(`YooKassa ${method} ${path} unreachable: ${String(err)}`, true);
      }
      const delay = retryDelaysMs[attempt];
      if (!failure.retryable || delay === undefined) throw failure;
      logger.warn({ attempt: attempt + 1, err: failure.message }, 'YooKassa call failed; retrying with the same key');
      await sleep(delay);
    }
  }

  return {
    name: 'yookassa',
    async create(request) {
      const payment = await call('POST', '/payments', createBody(request), request.idempotenceKey);
      return payment as YookassaPayment;
    },
    get: (id) => call('GET', `/payments/${encodeURIComponent(id)}`),
    async capture(id, amount, idempotenceKey) {
      const body = { amount: { value: amount, currency: 'RUB' } };
      const payment = await call('POST', `/payments/${encodeURIComponent(id)}/capture`, body, idempotenceKey);
      return payment as YookassaPayment;
    },
    async refund(request) {
      const refund = await call('POST', '/refunds', refundBody(request), request.idempotenceKey, YookassaRefund);
      return refund as YookassaRefund;
    },
    async list(since) {
      const page = (path: string, cursor: string | undefined) => {
        const query = new URLSearchParams({ 'created_at.gte': since.toISOString(), limit: '100' });
        if (cursor) query.set('cursor', cursor);
        return `${path}?${query.toString()}`;
      };
      const [payments, refunds] = await Promise.all([
        everyPage((cursor) => call('GET', page('/payments', cursor), undefined, undefined, YookassaPaymentList)),
        everyPage((cursor) => call('GET', page('/refunds', cursor), undefined, undefined, YookassaRefundList)),
      ]);
      return { payments, refunds };
    },
  };
}

/** The items of every page of a YooKassa list, following `next_cursor`. */
async function everyPage<T>(
  read: (cursor: string | undefined) => Promise<{ items: T[]; next_cursor?: string } | null>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    if (!page) throw new ProviderError('YooKassa answered 404 to a list', true);
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

/** The refund body: the whole amount back, with a refund receipt to the payer's e-mail. */
function refundBody(request: ProviderRefundRequest): YookassaCreateRefundRequest {
  const amount = { value: request.amount, currency: 'RUB' };
  return {
    payment_id: request.paymentId,
    amount,
    description: request.description,
    ...(request.receiptEmail ? { receipt: receiptOf(request.description, amount, request.receiptEmail) } : {}),
  };
}

/** A 54-FZ receipt of one full-payment service line. */
function receiptOf(description: string, amount: YookassaAmount, email: string) {
  return {
    customer: { email },
    items: [
      {
        description,
        quantity: '1.00',
        amount,
        vat_code: RECEIPT_VAT_CODE,
        payment_mode: 'full_payment',
        payment_subject: 'service',
      },
    ],
  };
}

/**
 * The create-payment body: capture at once, our ids in metadata, a receipt; a redirect confirmation (saving the card
 * when asked), or an autopayment of a saved method, which needs none.
 */
function createBody(request: ProviderPaymentRequest): YookassaCreatePaymentRequest {
  const amount = { value: request.amount, currency: 'RUB' };
  return {
    amount,
    capture: true,
    ...(request.paymentMethodId
      ? { payment_method_id: request.paymentMethodId }
      : { confirmation: { type: 'redirect' as const, return_url: request.returnUrl } }),
    ...(request.savePaymentMethod ? { save_payment_method: true } : {}),
    description: request.description,
    metadata: request.metadata,
    receipt: receiptOf(request.description, amount, request.receiptEmail),
  };
}

function parseObject<S extends z.ZodType>(schema: S, text: string): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProviderError('YooKassa answered something that is not JSON', true);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ProviderError(`YooKassa object not understood: ${parsed.error.message}`, false);
  return parsed.data;
}
