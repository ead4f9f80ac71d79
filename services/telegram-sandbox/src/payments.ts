import type { LabeledPrice, Message, PreCheckoutQuery, SuccessfulPayment } from 'grammy/types';
import type { SandboxChats } from './chats';
import { randomId } from './ids';
import type { SandboxMessages } from './messages';
import { badRequest, type Handler, type Params } from './params';
import type { InvoicePayment, SandboxUser, StarCharge, StarSubscription } from './types';
import type { SandboxUpdates } from './updates';

type PreCheckoutAnswer = { ok: boolean; error_message?: string };

/** The one subscription period Telegram allows (30 days), and the highest price of a subscription in Stars. */
export const SUBSCRIPTION_PERIOD = 2_592_000;
export const SUBSCRIPTION_MAX_STARS = 10_000;

/**
 * Payments in Telegram Stars: invoices as Telegram checks them, the user paying one (a
 * `pre_checkout_query` the bot must answer in time, then `successful_payment`), subscriptions (an invoice link
 * with `subscription_period`, renewed by Telegram every 30 days with a new `successful_payment` until canceled),
 * and refunds of the charges taken.
 */
export function createPayments(parts: {
  chats: SandboxChats;
  messages: SandboxMessages;
  updates: SandboxUpdates;
  /** How long a pre-checkout query waits for the bot's answer before the payment is declined. */
  preCheckoutMs: number;
}) {
  const { chats, messages, updates, preCheckoutMs } = parts;
  /** Pre-checkout queries waiting for the bot's answer, by id. */
  const preCheckouts = new Map<string, (answer: PreCheckoutAnswer) => void>();
  const charges = new Map<string, StarCharge>();
  /** The payload of each invoice message (Telegram keeps it from the payer's view), by message id. */
  const invoicePayloads = new Map<number, string>();
  /** Invoice links made with `subscription_period`, by link. */
  const subscriptionLinks = new Map<string, ReturnType<typeof invoiceOf>>();
  /** Subscriptions by their first charge's id (what `editUserStarSubscription` names). */
  const subscriptions = new Map<string, StarSubscription>();
  let nextInvoiceNumber = 1;

  const handlers: Record<string, Handler> = {
    sendInvoice: (params) => {
      const { payload, ...invoice } = invoiceOf(params);
      const message = messages.botMessage(params.requiredNumber('chat_id'), {
        invoice,
        ...messages.replyMarkup(params),
      });
      invoicePayloads.set(message.message_id, payload);
      return message;
    },

    createInvoiceLink: (params) => {
      const invoice = invoiceOf(params);
      const link = `https://t.me/$${randomId(12)}`;
      const period = params.number('subscription_period');
      if (period !== undefined) {
        // Bot API: only XTR (checked above), exactly 30 days, at most 10 000 Stars.
        if (period !== SUBSCRIPTION_PERIOD) throw badRequest('SUBSCRIPTION_PERIOD_INVALID');
        if (invoice.total_amount > SUBSCRIPTION_MAX_STARS) throw badRequest('SUBSCRIPTION_AMOUNT_INVALID');
        subscriptionLinks.set(link, invoice);
      }
      return link;
    },

    // Cancels or restores a subscription's renewal. Only the bot's own cancellation can be undone, and only
    // before the paid period ends.
    editUserStarSubscription: (params) => {
      const chargeId = params.string('telegram_payment_charge_id') ?? '';
      const subscription = subscriptions.get(chargeId);
      const canceled = params.values.is_canceled;
      if (canceled === undefined) throw badRequest('parameter "is_canceled" is required');
      if (!subscription || subscription.user_id !== params.number('user_id')) throw badRequest('CHARGE_NOT_FOUND');
      if (canceled === true || canceled === 'true') {
        subscription.canceled_by_bot = true;
        return true;
      }
      if (subscription.canceled_by_user || subscription.expiration_date * 1000 <= Date.now()) {
        throw badRequest('SUBSCRIPTION_EXPIRED');
      }
      subscription.canceled_by_bot = false;
      return true;
    },

    answerPreCheckoutQuery: (params) => {
      const resolve = preCheckouts.get(params.string('pre_checkout_query_id') ?? '');
      if (!resolve) throw badRequest('query is too old and response timeout expired or query ID is invalid');
      const ok = params.values.ok === true || params.values.ok === 'true';
      const errorMessage = params.string('error_message');
      if (!ok && !errorMessage) throw badRequest('error_message is required when ok is false');
      resolve(ok ? { ok } : { ok, error_message: errorMessage! });
      return true;
    },

    refundStarPayment: (params) => {
      const charge = charges.get(params.string('telegram_payment_charge_id') ?? '');
      if (!charge || charge.user_id !== params.number('user_id')) throw badRequest('CHARGE_NOT_FOUND');
      if (charge.refunded) throw badRequest('CHARGE_ALREADY_REFUNDED');
      charge.refunded = true;
      charge.refunded_date = Math.floor(Date.now() / 1000);
      return true;
    },

    // The bot's transactions in chronological order: each payment, and a refund under its payment's id.
    getStarTransactions: (params) => {
      const transactions = [...charges].flatMap(([id, charge]) => {
        const user = { type: 'user', user: { id: charge.user_id, is_bot: false, first_name: String(charge.user_id) } };
        const paid = { id, amount: charge.total_amount, date: charge.date, source: user };
        return charge.refunded_date === undefined
          ? [paid]
          : [paid, { id, amount: charge.total_amount, date: charge.refunded_date, receiver: user }];
      });
      transactions.sort((a, b) => a.date - b.date);
      const offset = params.number('offset') ?? 0;
      const limit = params.number('limit') ?? 100;
      if (limit < 1 || limit > 100) throw badRequest('LIMIT_INVALID');
      return { transactions: transactions.slice(offset, offset + limit) };
    },
  };

  /** The user confirms paying `invoice`: the bot's pre-checkout answer, then the charge and `successful_payment`. */
  async function checkout(
    from: SandboxUser,
    invoice: { currency: string; total_amount: number },
    payload: string,
    subscription?: number,
  ): Promise<InvoicePayment> {
    const query: PreCheckoutQuery = {
      id: messages.queryId(from),
      from: { ...from, is_bot: false },
      currency: invoice.currency,
      total_amount: invoice.total_amount,
      invoice_payload: payload,
    };
    const decision = await new Promise<PreCheckoutAnswer>((resolve) => {
      const timer = setTimeout(() => settle({ ok: false, error_message: 'Бот не ответил вовремя' }), preCheckoutMs);
      const settle = (answer: PreCheckoutAnswer) => {
        clearTimeout(timer);
        preCheckouts.delete(query.id);
        resolve(answer);
      };
      preCheckouts.set(query.id, settle);
      updates.push({ pre_checkout_query: query });
    });
    if (!decision.ok) return { ok: false, error_message: decision.error_message ?? '' };
    return charge(from, invoice, payload, subscription);
  }

  /** Takes the stars and tells the bot: a `successful_payment` message (of a subscription: when it expires). */
  function charge(
    from: SandboxUser,
    invoice: { currency: string; total_amount: number },
    payload: string,
    subscription?: number,
    firstRecurring = true,
  ): InvoicePayment & { ok: true } {
    const chargeId = `stxSandbox${nextInvoiceNumber++}_${randomId(12)}`;
    const date = Math.floor(Date.now() / 1000);
    charges.set(chargeId, { user_id: from.id, total_amount: invoice.total_amount, refunded: false, date });
    const payment: SuccessfulPayment = {
      currency: invoice.currency,
      total_amount: invoice.total_amount,
      invoice_payload: payload,
      ...(subscription === undefined
        ? {}
        : {
            subscription_expiration_date: subscription,
            is_recurring: true as const,
            ...(firstRecurring ? { is_first_recurring: true as const } : {}),
          }),
      telegram_payment_charge_id: chargeId,
      provider_payment_charge_id: '',
    };
    return { ok: true, payment, update: messages.userMessage(from, { successful_payment: payment }) };
  }

  async function payInvoice(from: SandboxUser, messageId: number): Promise<InvoicePayment> {
    const invoice = chats.of(from).messages.get(messageId)?.invoice;
    const payload = invoicePayloads.get(messageId);
    if (!invoice || payload === undefined) throw new Error(`message ${messageId} of chat ${from.id} is no invoice`);
    return checkout(from, invoice, payload);
  }

  /** The user opens a subscription's invoice link and pays it: the subscription starts for 30 days. */
  async function paySubscriptionLink(from: SandboxUser, link: string): Promise<InvoicePayment> {
    const invoice = subscriptionLinks.get(link);
    if (!invoice) throw new Error(`${link} is no subscription invoice link`);
    const expiration = Math.floor(Date.now() / 1000) + SUBSCRIPTION_PERIOD;
    const paid = await checkout(from, invoice, invoice.payload, expiration);
    if (paid.ok) {
      subscriptions.set(paid.payment.telegram_payment_charge_id, {
        user_id: from.id,
        user: from,
        invoice,
        expiration_date: expiration,
        canceled_by_bot: false,
        canceled_by_user: false,
      });
    }
    return paid;
  }

  /**
   * Thirty days have passed: Telegram renews the subscription (no pre-checkout) with a new charge and
   * `successful_payment`, or, canceled, lets it end. Null when it was not renewed.
   */
  function renewSubscription(firstChargeId: string): (InvoicePayment & { ok: true }) | null {
    const subscription = subscriptions.get(firstChargeId);
    if (!subscription) throw new Error(`no subscription of charge ${firstChargeId}`);
    if (subscription.canceled_by_bot || subscription.canceled_by_user) return null;
    subscription.expiration_date += SUBSCRIPTION_PERIOD;
    const { invoice, user } = subscription;
    return charge(user, invoice, invoice.payload, subscription.expiration_date, false);
  }

  return {
    handlers,
    payInvoice,
    paySubscriptionLink,
    renewSubscription,
    charges: charges as ReadonlyMap<string, StarCharge>,
    subscriptions: subscriptions as ReadonlyMap<string, StarSubscription>,
  };
}

/** An invoice's fields as Telegram checks them: Stars (XTR) need an empty provider token and exactly one price. */
function invoiceOf(params: Params): Message.InvoiceMessage['invoice'] & { payload: string } {
  const title = params.string('title') ?? '';
  const description = params.string('description') ?? '';
  const payload = params.string('payload') ?? '';
  const currency = params.string('currency') ?? '';
  const prices = params.object<LabeledPrice[]>('prices');
  if (title.length < 1 || title.length > 32) throw badRequest('INVOICE_TITLE_INVALID');
  if (description.length < 1 || description.length > 255) throw badRequest('INVOICE_DESCRIPTION_INVALID');
  if (Buffer.byteLength(payload) < 1 || Buffer.byteLength(payload) > 128) throw badRequest('INVOICE_PAYLOAD_INVALID');
  if (!Array.isArray(prices) || prices.length === 0) throw badRequest('parameter "prices" is required');
  // Stars need an empty provider token and exactly one price; any other currency needs a payment
  // provider, which the sandbox (like a bot that sells in Stars only) has none of.
  if (currency !== 'XTR') throw badRequest('PAYMENT_PROVIDER_INVALID');
  if (params.string('provider_token') || prices.length !== 1) throw badRequest('STARS_INVOICE_INVALID');
  const total = prices.reduce((sum, price) => sum + price.amount, 0);
  if (!prices.every((price) => Number.isInteger(price.amount) && price.amount > 0)) throw badRequest('PRICE_INVALID');
  return { title, description, start_parameter: '', currency, total_amount: total, payload };
}
