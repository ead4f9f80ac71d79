import type { AnswerCache, ServiceDeps } from '@gpt/kit';
import type { AuthConfig } from './config';
import type { AuthDatabase } from './data/schema';

/** What auth's routes, consumers and seeds need: the connections and what service.ts wires of them once. */
export interface AuthDeps extends ServiceDeps<AuthConfig, AuthDatabase> {
  /** The finished profile answers by user id (domain/profile-cache.ts). */
  profiles: AnswerCache;
}
