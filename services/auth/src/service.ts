import type { ServiceDefinition } from '@gpt/kit';
import { buildApp } from './app';
import type { AuthConfig } from './config';
import { migrations } from './data/migrations';
import type { AuthDatabase } from './data/schema';
import { ensureAdmin } from './domain/ensure-admin';
import { authConsumers } from './messaging';

export const authService: ServiceDefinition<AuthConfig, AuthDatabase> = {
  name: 'auth',
  migrations,
  consumers: authConsumers,
  buildApp,
  onStart: ensureAdmin,
};
