import {
  InternalStarTransactions,
  internalStarRefundsPath,
  internalStarSubscriptionCancelPath,
  type InternalStarSubscriptionCancel,
  internalStarTransactionsPath,
  type InternalStarRefundRequest,
  type StarTransaction,
} from '@gpt/contracts';
import { ProviderError } from './provider';

export interface StarRefundsOptions {
  /** The bot service: it owns the Telegram connection (the bot token, or the embedded sandbox). */
  botUrl: string;
  /** The bot's key, for the reconciliation's read of Telegram's transactions (no admin acts then). */
  botApiKey: string;
  timeoutMs: number;
}

/**
 * Stars go back through Telegram's `refundStarPayment`, which only the bot can call: billing asks
 * the bot's internal route with the acting admin's token, as auth asks billing. A second refund of
 * the same charge is answered as done by the bot (Telegram's CHARGE_ALREADY_REFUNDED), so a retry
 * after a timeout is safe. A 4xx answer is Telegram's or the bot's refusal; anything else may pass.
 */
export function starRefunds(options: StarRefundsOptions) {
  /** POSTs to one of the bot's internal routes; a refusal or failure is a ProviderError (`what` names the call). */
  async function postToBot(path: string, body: unknown, authorization: Record<string, string>, what: string) {
    let res: Response;
    try {
      res = await fetch(new URL(path, options.botUrl), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...authorization },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (err) {
      throw new ProviderError(`the bot is unreachable ${what}: ${String(err)}`, true);
    }
    if (res.ok) return;
    const answer = (await res.json().catch(() => ({}))) as { error?: string };
    throw new ProviderError(answer.error ?? `the bot answered ${res.status}`, res.status >= 500 || res.status === 429);
  }

  return {
    refund(request: InternalStarRefundRequest, adminToken: string): Promise<void> {
      return postToBot(
        internalStarRefundsPath,
        request,
        { Authorization: `Bearer ${adminToken}` },
        'for a Stars refund',
      );
    },

    /** Cancels a Stars subscription at Telegram (`editUserStarSubscription`, through the bot, with the bot key). */
    cancelSubscription(request: InternalStarSubscriptionCancel): Promise<void> {
      return postToBot(
        internalStarSubscriptionCancelPath,
        request,
        { 'X-Bot-Key': options.botApiKey },
        'to cancel a Stars subscription',
      );
    },

    /** Telegram's Stars transactions since `since` (`getStarTransactions`, through the bot), for the reconciliation. */
    async transactions(since: Date): Promise<StarTransaction[]> {
      const url = new URL(internalStarTransactionsPath, options.botUrl);
      url.searchParams.set('since', since.toISOString());
      let res: Response;
      try {
        res = await fetch(url, {
          headers: { 'X-Bot-Key': options.botApiKey },
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (err) {
        throw new ProviderError(`the bot is unreachable for Telegram's transactions: ${String(err)}`, true);
      }
      const body: unknown = await res.json().catch(() => undefined);
      const parsed = InternalStarTransactions.safeParse(body);
      if (res.ok && parsed.success) return parsed.data.transactions;
      const error = (body as { error?: string } | undefined)?.error;
      throw new ProviderError(error ?? `the bot answered ${res.status}`, true);
    },
  };
}
export type StarRefunds = ReturnType<typeof starRefunds>;
