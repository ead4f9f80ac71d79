import { readdirSync } from 'node:fs';
import { describe, expect, test } from '@jest/globals';
import { type ApiRoute, apiRoutes, bySpecificity } from '../src/routes';

/** The routes of every `contracts/src/*.routes.ts` file, whatever files there are. */
const sourceDir = new URL('../src/', import.meta.url);
const declared: readonly ApiRoute[] = (
  await Promise.all(
    readdirSync(sourceDir)
      .filter((name) => name.endsWith('.routes.ts'))
      .map(async (name) => Object.values((await import(new URL(name, sourceDir).href)) as Record<string, ApiRoute[]>)),
  )
).flat(2);

/** Whether `earlier`, tried first, would take a call meant for `later`: same method, and each segment a parameter or the same literal. */
function shadows(earlier: ApiRoute, later: ApiRoute): boolean {
  if (earlier.method !== later.method) return false;
  const first = earlier.path.split('/');
  const second = later.path.split('/');
  return (
    first.length === second.length &&
    first.some((segment, index) => segment !== second[index]) &&
    first.every((segment, index) => segment.startsWith('{') || segment === second[index])
  );
}

/** Pairs `earlier → later` where the earlier route would shadow the later one. */
function shadowed(routes: readonly ApiRoute[]): string[] {
  return routes.flatMap((later, index) =>
    routes
      .slice(0, index)
      .filter((earlier) => shadows(earlier, later))
      .map((earlier) => `${earlier.method} ${earlier.path} → ${later.path}`),
  );
}

const key = (route: ApiRoute) => `${route.id} ${route.method} ${route.path}`;

describe('the route list (docs/architecture.md, Contracts)', () => {
  test('holds every route of the *.routes.ts files once, and no other', () => {
    expect(apiRoutes.map(key).sort()).toEqual(declared.map(key).sort());
    expect(new Set(apiRoutes.map((route) => route.id)).size).toBe(apiRoutes.length);
    expect(new Set(apiRoutes.map((route) => `${route.method} ${route.path}`)).size).toBe(apiRoutes.length);
  });

  test('never puts a parameterised path before a literal one it would shadow', () => {
    expect(shadowed(apiRoutes)).toEqual([]);
  });

  test('computes that order whatever order the files declare routes in', () => {
    const reversed = [...declared].reverse();
    expect(shadowed(reversed).length).toBeGreaterThan(0);
    expect(shadowed(bySpecificity(reversed))).toEqual([]);
    expect(
      bySpecificity([
        { path: '/api/admin/users/{id}' },
        { path: '/api/admin/users/export' },
        { path: '/api/articles/{slug}' },
        { path: '/api/articles/category/{slug}' },
      ]).map((route) => route.path),
    ).toEqual([
      '/api/admin/users/export',
      '/api/admin/users/{id}',
      '/api/articles/category/{slug}',
      '/api/articles/{slug}',
    ]);
  });
});
