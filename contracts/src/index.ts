/**
 * @gpt/contracts: zod schemas and types of every HTTP call and event (the route list is `@gpt/contracts/routes`,
 * the OpenAPI document built from it `@gpt/contracts/openapi`).
 */
export * from './common';
export * from './auth';
export * from './content';
export * from './billing';
export * from './growth';
export * from './chat-history';
export * from './metrics';
export * from './pricing';
export * from './settings';
export * from './bot';
export * from './broadcasts';
export * from './chat';
export * from './events';
export * from './telegram-html';
export * from './audit';
export * from './reconciliation';
export * from './subscriptions';
