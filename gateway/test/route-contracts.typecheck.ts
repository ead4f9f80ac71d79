/**
 * Typecheck fixture, part of `npm run typecheck` (never run by jest): the gateway's table is built
 * from the contracts' route type, so a route the gateway could not route or guard fails the build.
 * Each `@ts-expect-error` is a route the compiler must refuse.
 */
import { routeRulesOf } from '../src/route-table';

export const unknownService = routeRulesOf([
  // @ts-expect-error a service that is not among the contracts' ServiceName
  { path: '/api/search', service: 'search', access: 'public' },
]);

export const unknownAccess = routeRulesOf([
  // @ts-expect-error an access the gateway has no check for
  { path: '/api/vip', service: 'content', access: 'vip' },
]);

export const missingAccess = routeRulesOf([
  // @ts-expect-error every route says who may call it
  { path: '/api/open', service: 'content' },
]);
