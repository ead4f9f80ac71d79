import { internalStarRefundsPath, type InternalStarRefundRequest } from '@gpt/contracts';
import { ProviderError } from './provider';

export interface StarRefundsOptions {
  /** The bot service: it owns the Telegram connection (the bot token, or the embedded sandbox). */
  botUrl: string;
  timeoutMs: number;
}

/**
 * Stars go back through Telegram's `refundStarPayment`, which only the bot can call: billing asks
 * the bot's internal route with the acting admin's token, as auth asks billing. A second refund of
 * the same charge is answered as done by the bot (Telegram's CHARGE_ALREADY_REFUNDED), so a retry
 * after a timeout is safe. A 4xx answer is Telegram's or the bot's refusal; anything else may pass.
 */
export function starRefunds(options: StarRefundsOptions) {
  return {
    async refund(request: InternalStarRefundRequest, adminToken: string): Promise<void> {
      let res: Response;
      try {
        res = await fetch(new URL(internalStarRefundsPath, options.botUrl), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${adminToken}` },
          body: JSON.stringify(request),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (err) {
        throw new ProviderError(`the bot is unreachable for a Stars refund: ${String(err)}`, true);
      }
      if (res.ok) return;
      const body = (await res.json().catch(() => ({}))) as { error?: string };
      throw new ProviderError(body.error ?? `the bot answered ${res.status}`, res.status >= 500 || res.status === 429);
    },
  };
}
export type StarRefunds = ReturnType<typeof starRefunds>;
