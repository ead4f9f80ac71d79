import type { ServiceDefinition } from '@gpt/kit';
import { buildApp } from './app';
import type { AuthConfig } from './config';
import { migrations } from './data/migrations';
import type { AuthDatabase } from './data/schema';
import { ensureAdmin } from './domain/ensure-admin';
import type { AuthDeps } from './deps';
import { profileCache } from './domain/profile-cache';
import { authConsumers } from './messaging/consumers';

export const authService: ServiceDefinition<AuthConfig, AuthDatabase, AuthDeps> = {
  name: 'auth',
  migrations,
  wire: (base) => ({ ...base, profiles: profileCache(base) }),
  consumers: authConsumers,
  buildApp,
  async onStart(deps) {
    await ensureAdmin(deps);
  },
  close: (deps) => deps.profiles.close(),
};
