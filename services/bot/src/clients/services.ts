import {
  type BotCreatePaymentRequest,
  type BotMessageRequest,
  type BotStarInvoiceRequest,
  type BotStarPaymentRequest,
  type BotStarPreCheckoutRequest,
  type BotUpsertUserRequest,
  type BroadcastRecipientsRequest,
  type BotHoldResponse,
  InsufficientCreditsDetail,
  type ServiceName,
} from '@gpt/contracts';
import { routeCaller } from '@gpt/contracts/client';
import { serviceFetch } from '@gpt/kit';
import { z } from 'zod';
import type { BotConfig } from '../config';

/** A refusal or failure of another service, with its status, error code and the answer's `details`. */
export class ServiceCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ServiceCallError';
  }
}

/** A refusal of another service (4xx) is told to the user; anything else is a failure of the update. */
export const isRefusal = (err: unknown): err is ServiceCallError => err instanceof ServiceCallError && err.status < 500;

const CALL_TIMEOUT_MS = 15_000;
/** The `details` of billing's 402 to a hold: what was available. */
const HoldRefusalDetails = z.tuple([InsufficientCreditsDetail]);
/**
 * A user the bot has just registered with auth reaches billing through auth's user.registered
 * event, usually within milliseconds: billing's "no such user" is waited out this long.
 */
const NEW_USER_WAIT_MS = [50, 100, 200, 400, 800, 1600];

async function waitingForNewUser<T>(call: () => Promise<T>): Promise<T> {
  for (const wait of NEW_USER_WAIT_MS) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof ServiceCallError && err.code === 'user_not_found')) throw err;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  return call();
}

/** An image attached to a recorded message (the user's photo, or the picture the model drew). */
export interface AttachedImage {
  bytes: Buffer;
  mimeType: string;
}

/** What a message may also carry: its mode and voice parts (absent: none). */
type VoiceFields = 'mode' | 'transcription_model' | 'audio_seconds' | 'speech_model' | 'speech_characters';

/** Who pays: a bot user by their Telegram id, a site user without Telegram (the web chat) by their id. */
export type Holder = { telegramId: number } | { userId: number };

export type RecordMessageBody = Omit<BotMessageRequest, 'user_id' | 'telegram_id' | 'door' | VoiceFields> &
  Partial<Pick<BotMessageRequest, VoiceFields | 'door'>> & { telegram_id?: number; user_id?: number };

/**
 * The other services as the bot sees them: their `/api/bot/*` routes with the bot key, like any
 * outside bot would call them, through the contracts' `callRoute` (method, path and schemas from the
 * route's id; each answer checked against its contract outside production).
 */
export function serviceClients(
  config: Pick<BotConfig, 'AUTH_URL' | 'BILLING_URL' | 'CHAT_HISTORY_URL' | 'BOT_API_KEY' | 'NODE_ENV'>,
) {
  const baseUrls: Partial<Record<ServiceName, string>> = {
    auth: config.AUTH_URL,
    billing: config.BILLING_URL,
    'chat-history': config.CHAT_HISTORY_URL,
  };
  const callRoute = routeCaller(
    async ({ route, method, path, body, headers: extra }) => {
      const url = `${baseUrls[route.service]}${path}`;
      const headers: Record<string, string> = { 'X-Bot-Key': config.BOT_API_KEY, ...extra };
      let sent: string | FormData | undefined;
      if (body instanceof FormData) sent = body;
      else if (body !== undefined) {
        headers['Content-Type'] = 'application/json';
        sent = JSON.stringify(body);
      }
      const response = await serviceFetch(url, {
        method,
        headers,
        body: sent,
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      const text = await response.text();
      const payload: unknown = text ? JSON.parse(text) : null;
      if (!response.ok) {
        const error = (payload ?? {}) as { error?: string; code?: string; details?: unknown };
        throw new ServiceCallError(
          response.status,
          error.code ?? 'error',
          error.error ?? `${method} ${url}: ${response.status}`,
          error.details,
        );
      }
      return payload;
    },
    {
      checkAnswers: config.NODE_ENV !== 'production',
      invalidBody: (refusal) => new ServiceCallError(400, refusal.code, refusal.error, refusal.details),
    },
  );

  return {
    upsertUser: (body: BotUpsertUserRequest) => callRoute('postBotUsers', { body }),
    /** Tells auth whether the Telegram user has blocked the bot, for the admin users list. */
    setTelegramBlocked: (telegramId: number, blocked: boolean) =>
      callRoute('putBotUsersByTelegramIdBlocked', { params: { telegram_id: String(telegramId) }, body: { blocked } }),
    /** A one-time link to join the web account, with the Telegram account's profile photo when there is one. */
    linkToken: (telegramId: number, photo: string | null) =>
      callRoute('postBotLinkTokens', { body: { telegram_id: telegramId, ...(photo ? { photo } : {}) } }),
    /** A single-use link that signs the Telegram user in on the site (`/web`). */
    signInLink: (telegramId: number) => callRoute('postBotSignInLinks', { body: { telegram_id: telegramId } }),
    news: (telegramId: number) =>
      callRoute('getBotUsersByTelegramIdNews', { params: { telegram_id: String(telegramId) } }),
    setNews: (telegramId: number, news: boolean) =>
      callRoute('putBotUsersByTelegramIdNews', { params: { telegram_id: String(telegramId) }, body: { news } }),
    broadcastRecipients: (audience: BroadcastRecipientsRequest) =>
      callRoute('postBotBroadcastRecipients', { body: audience }),
    /** The admin's own profile (their linked Telegram), read with their token. */
    adminProfile: (authorization: string) => callRoute('getAuthProfile', { headers: { Authorization: authorization } }),

    balance: (telegramId: number) =>
      waitingForNewUser(() => callRoute('getBotBalance', { query: { telegram_id: telegramId } })),
    tariffs: () => callRoute('getTariffs'),
    /** Holds `amount` credits; refused for want of them (402), what billing had available instead. */
    hold: (holder: Holder, amount: number): Promise<BotHoldResponse | InsufficientCreditsDetail> =>
      waitingForNewUser(async () => {
        const who = 'telegramId' in holder ? { telegram_id: holder.telegramId } : { user_id: holder.userId };
        try {
          return await callRoute('postBotHolds', { body: { ...who, amount } });
        } catch (err) {
          if (!(err instanceof ServiceCallError && err.code === 'insufficient_credits')) throw err;
          return HoldRefusalDetails.parse(err.details)[0];
        }
      }),
    releaseHold: (holdId: string) => callRoute('deleteBotHoldsById', { params: { id: holdId } }),
    createPayment: (body: BotCreatePaymentRequest) => waitingForNewUser(() => callRoute('postBotPayments', { body })),
    payments: (telegramId: number) => callRoute('getBotPayments', { query: { telegram_id: telegramId, limit: 5 } }),
    /** A package (one of `TOP_UP_PACKAGES`) or a tariff; the contract's check refuses anything else, as billing would. */
    starInvoice: (body: Omit<BotStarInvoiceRequest, 'amount'> & { amount?: string }) =>
      waitingForNewUser(() => callRoute('postBotStarsInvoices', { body: body as BotStarInvoiceRequest })),
    starPreCheckout: (body: BotStarPreCheckoutRequest) => callRoute('postBotStarsPreCheckout', { body }),
    starPayment: (body: BotStarPaymentRequest) => callRoute('postBotStarsPayments', { body }),
    supplyEmail: (paymentId: string, email: string) =>
      callRoute('patchBotPaymentsByIdEmail', { params: { id: paymentId }, body: { email } }),
    subscriptions: (telegramId: number) =>
      waitingForNewUser(() => callRoute('getBotSubscriptions', { query: { telegram_id: telegramId } })),
    /** The consent text «Продлевать автоматически» of buying this tariff by card now, and its version. */
    renewalConsent: (telegramId: number, tariffId: number) =>
      callRoute('getBotSubscriptionsConsentByTariffId', {
        params: { tariff_id: tariffId },
        query: { telegram_id: telegramId },
      }),
    /** Billing stops renewing it; a Stars subscription is canceled at Telegram first. */
    cancelSubscription: (id: number, telegramId: number) =>
      callRoute('postBotSubscriptionsByIdCancel', { params: { id }, body: { telegram_id: telegramId } }),
    /** A Stars subscription the bot turned back on at Telegram renews again. */
    resumeSubscription: (id: number, telegramId: number) =>
      callRoute('postBotSubscriptionsByIdResume', { params: { id }, body: { telegram_id: telegramId } }),

    referrals: (telegramId: number) =>
      waitingForNewUser(() => callRoute('getBotReferrals', { query: { telegram_id: telegramId } })),
    redeemPromo: (telegramId: number, code: string) =>
      waitingForNewUser(() => callRoute('postBotPromoCodesRedeem', { body: { telegram_id: telegramId, code } })),

    models: () => callRoute('getBotModels'),
    modes: () => callRoute('getBotModes'),
    settings: () => callRoute('getBotSettings'),
    /** Records one exchange; the hold id doubles as the idempotency key, so a retried call records once. */
    async recordMessage(body: RecordMessageBody, image?: AttachedImage): Promise<void> {
      const headers: Record<string, string> = body.hold_id ? { 'Idempotency-Key': body.hold_id } : {};
      if (!image) {
        await callRoute('postBotMessages', { body, headers });
        return;
      }
      const form = new FormData();
      for (const [key, value] of Object.entries(body)) {
        if (value !== null && value !== undefined) form.set(key, String(value));
      }
      form.set('image', new Blob([new Uint8Array(image.bytes)], { type: image.mimeType }), 'image');
      await callRoute('postBotMessages', { body: form, headers });
    },
  };
}

export type ServiceClients = ReturnType<typeof serviceClients>;
