import {
  BotBalanceResponse,
  BotHoldResponse,
  BotLinkTokenResponse,
  BotModelsResponse,
  BotModesResponse,
  BotSettingsResponse,
  BotStarInvoiceResponse,
  BotStarPreCheckoutResponse,
  BotTelegramBlockedResponse,
  BotUser,
  CreatePaymentResponse,
  InsufficientCreditsDetail,
  PublicTariffsResponse,
  UserPayment,
  UserPaymentsResponse,
  RedeemPromoResponse,
  ReferralSummary,
  type BotCreatePaymentRequest,
  type BotStarInvoiceRequest,
  type BotStarPaymentRequest,
  type BotStarPreCheckoutRequest,
  type BotMessageRequest,
  type BotUpsertUserRequest,
} from '@gpt/contracts';
import { apiPath } from '@gpt/contracts/openapi';
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

export type RecordMessageBody = Omit<BotMessageRequest, 'user_id' | 'telegram_id' | VoiceFields> &
  Partial<Pick<BotMessageRequest, VoiceFields>> & { telegram_id: number };

/**
 * The other services as the bot sees them: their `/api/bot/*` routes with the bot key, like any
 * outside bot would call them. Every answer is checked against its contract.
 */
export function serviceClients(
  config: Pick<BotConfig, 'AUTH_URL' | 'BILLING_URL' | 'CHAT_HISTORY_URL' | 'BOT_API_KEY'>,
) {
  async function call<S extends z.ZodType>(
    schema: S | null,
    method: string,
    url: string,
    options: { json?: unknown; form?: FormData; headers?: Record<string, string> } = {},
  ): Promise<z.output<S>> {
    const headers: Record<string, string> = { 'X-Bot-Key': config.BOT_API_KEY, ...options.headers };
    let body: string | FormData | undefined = options.form;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const response = await serviceFetch(url, { method, headers, body, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
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
    return (schema ? schema.parse(payload) : undefined) as z.output<S>;
  }

  const auth = (path: string) => `${config.AUTH_URL}${path}`;
  const billing = (path: string) => `${config.BILLING_URL}${path}`;
  const history = (path: string) => `${config.CHAT_HISTORY_URL}${path}`;

  return {
    upsertUser: (body: BotUpsertUserRequest) => call(BotUser, 'POST', auth(apiPath('postBotUsers')), { json: body }),
    /** Tells auth whether the Telegram user has blocked the bot, for the admin users list. */
    setTelegramBlocked: (telegramId: number, blocked: boolean) =>
      call(
        BotTelegramBlockedResponse,
        'PUT',
        auth(apiPath('putBotUsersByTelegramIdBlocked', { telegram_id: String(telegramId) })),
        { json: { blocked } },
      ),
    linkToken: (telegramId: number) =>
      call(BotLinkTokenResponse, 'POST', auth(apiPath('postBotLinkTokens')), { json: { telegram_id: telegramId } }),

    balance: (telegramId: number) =>
      waitingForNewUser(() =>
        call(BotBalanceResponse, 'GET', billing(`${apiPath('getBotBalance')}?telegram_id=${telegramId}`)),
      ),
    tariffs: () => call(PublicTariffsResponse, 'GET', billing(apiPath('getTariffs'))),
    /** Holds `amount` credits; refused for want of them (402), what billing had available instead. */
    hold: (telegramId: number, amount: number): Promise<BotHoldResponse | InsufficientCreditsDetail> =>
      waitingForNewUser(async () => {
        try {
          return await call(BotHoldResponse, 'POST', billing(apiPath('postBotHolds')), {
            json: { telegram_id: telegramId, amount },
          });
        } catch (err) {
          if (!(err instanceof ServiceCallError && err.code === 'insufficient_credits')) throw err;
          return HoldRefusalDetails.parse(err.details)[0];
        }
      }),
    releaseHold: (holdId: string) => call(null, 'DELETE', billing(apiPath('deleteBotHoldsById', { id: holdId }))),
    createPayment: (body: BotCreatePaymentRequest) =>
      waitingForNewUser(() => call(CreatePaymentResponse, 'POST', billing(apiPath('postBotPayments')), { json: body })),
    payments: (telegramId: number) =>
      call(UserPaymentsResponse, 'GET', billing(`${apiPath('getBotPayments')}?telegram_id=${telegramId}&limit=5`)),
    /** A package (one of billing's `TOP_UP_PACKAGES`) or a tariff; billing refuses anything else. */
    starInvoice: (body: Omit<BotStarInvoiceRequest, 'amount'> & { amount?: string }) =>
      waitingForNewUser(() =>
        call(BotStarInvoiceResponse, 'POST', billing(apiPath('postBotStarsInvoices')), { json: body }),
      ),
    starPreCheckout: (body: BotStarPreCheckoutRequest) =>
      call(BotStarPreCheckoutResponse, 'POST', billing(apiPath('postBotStarsPreCheckout')), { json: body }),
    starPayment: (body: BotStarPaymentRequest) =>
      call(UserPayment, 'POST', billing(apiPath('postBotStarsPayments')), { json: body }),
    supplyEmail: (paymentId: string, email: string) =>
      call(CreatePaymentResponse, 'PATCH', billing(apiPath('patchBotPaymentsByIdEmail', { id: paymentId })), {
        json: { email },
      }),

    referrals: (telegramId: number) =>
      waitingForNewUser(() =>
        call(ReferralSummary, 'GET', billing(`${apiPath('getBotReferrals')}?telegram_id=${telegramId}`)),
      ),
    redeemPromo: (telegramId: number, code: string) =>
      waitingForNewUser(() =>
        call(RedeemPromoResponse, 'POST', billing(apiPath('postBotPromoCodesRedeem')), {
          json: { telegram_id: telegramId, code },
        }),
      ),

    models: () => call(BotModelsResponse, 'GET', history(apiPath('getBotModels'))),
    modes: () => call(BotModesResponse, 'GET', history(apiPath('getBotModes'))),
    settings: () => call(BotSettingsResponse, 'GET', history(apiPath('getBotSettings'))),
    /** Records one exchange; the hold id doubles as the idempotency key, so a retried call records once. */
    async recordMessage(body: RecordMessageBody, image?: AttachedImage): Promise<void> {
      const headers: Record<string, string> = body.hold_id ? { 'Idempotency-Key': body.hold_id } : {};
      if (!image) {
        await call(null, 'POST', history(apiPath('postBotMessages')), { json: body, headers });
        return;
      }
      const form = new FormData();
      for (const [key, value] of Object.entries(body)) {
        if (value !== null && value !== undefined) form.set(key, String(value));
      }
      form.set('image', new Blob([new Uint8Array(image.bytes)], { type: image.mimeType }), 'image');
      await call(null, 'POST', history(apiPath('postBotMessages')), { form, headers });
    },
  };
}

export type ServiceClients = ReturnType<typeof serviceClients>;
