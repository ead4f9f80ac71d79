import type { AnswerCache, ServiceDeps } from '@gpt/kit';
import type { BillingConfig } from './config';
import type { BillingDatabase } from './data/schema';
import type { Providers } from './provider';

/** What billing's routes, consumers and jobs need: the connections and what service.ts wires of them once. */
export interface BillingDeps extends ServiceDeps<BillingConfig, BillingDatabase> {
  /** The payment providers (YooKassa or the sandbox, and Stars refunds through the bot). */
  providers: Providers;
  /** The finished `GET /api/tariffs` answer (domain/public-tariffs.ts). */
  tariffAnswers: AnswerCache;
}
