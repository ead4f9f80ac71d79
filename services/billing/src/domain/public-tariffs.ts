import { PublicTariffsResponse } from '@gpt/contracts';
import { type AnswerCache, type AnswerCacheDeps, type CachedAnswer, serviceAnswerCache } from '@gpt/kit';
import type { BillingDeps } from '../deps';
import { tariffsRepository } from '../data/tariffs.repository';

/** The longest the tariffs are kept, should a change's announcement to the other replicas be lost. */
const TARIFFS_MAX_AGE_MS = 30_000;

/**
 * The finished `GET /api/tariffs` answer (home page, pricing page, the bot's /buy), kept until a
 * tariff changes: every write to tariffs runs in `deps.tariffAnswers.changing(…)`, which drops it
 * here and, through the Redis channel `<REDIS_KEY_PREFIX>billing:tariffs:changed`, in every other replica.
 */
export const tariffAnswers = (deps: AnswerCacheDeps): AnswerCache =>
  serviceAnswerCache(deps, 'billing:tariffs', { maxEntries: 1, maxAgeMs: TARIFFS_MAX_AGE_MS });

/** The active tariffs as the contract answers them, made once and then served from memory. */
export const publicTariffsAnswer = (deps: BillingDeps): Promise<CachedAnswer<PublicTariffsResponse>> =>
  deps.tariffAnswers.get('tariffs', async () =>
    PublicTariffsResponse.parse({ success: true, tariffs: await tariffsRepository(deps.db).listActive() }),
  );
