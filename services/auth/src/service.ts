import type { ServiceDefinition } from '@gpt/kit';
import { buildApp } from './app';
import type { AuthConfig } from './config';
import { migrations } from './data/migrations';
import type { AuthDatabase } from './data/schema';
import { ensureAdmin } from './domain/ensure-admin';
import { startProfileCache } from './domain/profile-cache';
import { authConsumers } from './messaging/consumers';

export const authService: ServiceDefinition<AuthConfig, AuthDatabase> = {
  name: 'auth',
  migrations,
  consumers: authConsumers,
  buildApp,
  async onStart(deps) {
    await ensureAdmin(deps);
    return startProfileCache(deps);
  },
};
