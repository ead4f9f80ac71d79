import { type AnswerCache, type AnswerCacheDeps, type CachedAnswer, serviceAnswerCache } from '@gpt/kit';
import type { z } from 'zod';
import type { ChatHistoryDeps } from '../deps';

/** The longest an answer is kept, should a change's announcement to the other replicas be lost. */
const MAX_AGE_MS = 30_000;

/** What is kept: the bot's model list and settings (read on every message) and the site's welcome offer. */
export type BotRead = 'models' | 'settings' | 'welcome_offer';

/**
 * The finished answers of the reads the bot makes on every message and the site on its pages, kept
 * until a model or a setting changes. Each depends on both (the welcome offer prices a message with
 * the default model), so every write to either runs in `deps.botReads.changing(…)`, which drops
 * them all here and, through the Redis channel `<REDIS_KEY_PREFIX>chat-history:reads:changed`, in every
 * other replica.
 */
export const botReads = (deps: AnswerCacheDeps): AnswerCache =>
  serviceAnswerCache(deps, 'chat-history:reads', { maxEntries: 3, maxAgeMs: MAX_AGE_MS });

/** The answer `read` as `schema` (its contract) answers it, made by `make` once and then served from memory until a change. */
export const keptAnswer = <S extends z.ZodType>(
  deps: ChatHistoryDeps,
  read: BotRead,
  schema: S,
  make: () => Promise<z.input<S>>,
): Promise<CachedAnswer<z.infer<S>>> => deps.botReads.get(read, async () => schema.parse(await make()));
