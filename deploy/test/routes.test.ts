import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { apiRoutes, toExpressPath } from '@gpt/contracts/openapi';
import type { Express } from 'express';
import { startTestStack, type TestStack } from '../src/testing';

/**
 * A route is declared once, in the contracts' `apiRoutes` (which the OpenAPI document and the gateway's
 * route table are built from): every `/api` route a service's router answers is in that list under that
 * service, and every route of the list is answered by its service.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
}, 60_000);
afterAll(() => stack?.close());

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** `METHOD /path` of every route an express app's routers declare (express 5 keeps them in `router.stack`). */
function declaredRoutes(app: Express): string[] {
  const found: string[] = [];
  const walk = (layers: Layer[]) => {
    for (const layer of layers) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          for (const [method, on] of Object.entries(layer.route.methods)) {
            if (on && method !== '_all') found.push(`${method.toUpperCase()} ${path}`);
          }
        }
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found;
}

describe('the routers and the contracts declare the same /api routes', () => {
  test.each(['auth', 'content', 'billing', 'chat-history', 'metrics', 'bot'])('%s', (name) => {
    const service = stack.services.find((candidate) => candidate.name === name)!;
    const answered = declaredRoutes(service.app)
      .filter((route) => route.split(' ')[1]!.startsWith('/api/'))
      .sort();
    const declared = apiRoutes
      .filter((route) => route.service === name)
      // The Telegram sandbox's routes exist only where the sandbox runs (no bot token), not on this stack's fake Telegram.
      .filter((route) => !route.path.startsWith('/api/telegram/sandbox/'))
      .map((route) => `${route.method.toUpperCase()} ${toExpressPath(route.path)}`)
      .sort();
    expect(answered).toEqual(declared);
  });
});
