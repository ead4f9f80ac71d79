import argon2 from 'argon2';
import type { AuthConfig } from '../config';

/** argon2id with the parameters from config; verification reads them from the stored hash. */
export function passwordHasher(
  config: Pick<AuthConfig, 'ARGON2_MEMORY_KIB' | 'ARGON2_TIME_COST' | 'ARGON2_PARALLELISM'>,
) {
  return {
    hash: (password: string) =>
      argon2.hash(password, {
        type: argon2.argon2id,
        memoryCost: config.ARGON2_MEMORY_KIB,
        timeCost: config.ARGON2_TIME_COST,
        parallelism: config.ARGON2_PARALLELISM,
      }),
    verify: (hash: string, password: string) => argon2.verify(hash, password).catch(() => false),
  };
}
