import type { ServiceDeps } from '@gpt/kit';
import type { AuthConfig } from './config';
import type { AuthDatabase } from './data/schema';

export type AuthDeps = ServiceDeps<AuthConfig, AuthDatabase>;
