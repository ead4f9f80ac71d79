import { isIP } from 'node:net';

/** A host only this machine reaches. */
export function isLocalHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '::ffff:127.0.0.1';
}

/** Values anyone would try first: the development admin's password and the usual placeholders. */
const KNOWN_DEFAULTS = new Set([
  'admin12345',
  'admin',
  'password',
  'changeme',
  'change-me',
  'secret',
  'example',
  '12345678',
]);

/** Least estimated entropy, in bits, production accepts for each secret it reads when set. */
const MIN_BITS: Record<string, number> = { JWT_SECRET: 100, BOT_API_KEY: 40, ADMIN_PASSWORD: 40 };

/** Shannon entropy of the value's own characters times its length: 32 × «a» is 0 bits, a random 32-character key about 150. */
function estimatedBits(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let perChar = 0;
  for (const count of counts.values()) perChar -= (count / value.length) * Math.log2(count / value.length);
  return perChar * value.length;
}

/**
 * What the environment must not be, beyond its schema (docs/security.md, Production and development):
 * in production no secret is a known default or guessable; in development (said outright, as `npm
 * start` says it) SITE_URL is this machine, since development runs the free payment sandbox and the
 * default admin password.
 */
export function environmentProblems(env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  if (env.NODE_ENV === 'production') {
    for (const [name, bits] of Object.entries(MIN_BITS)) {
      const value = env[name];
      if (value === undefined) continue;
      if (KNOWN_DEFAULTS.has(value.toLowerCase())) problems.push(`${name}: is a known default value`);
      else if (estimatedBits(value) < bits) problems.push(`${name}: is too easy to guess (generate a random one)`);
    }
  }
  if (env.NODE_ENV === 'development' && env.SITE_URL && URL.canParse(env.SITE_URL)) {
    if (!isLocalHost(new URL(env.SITE_URL).hostname)) {
      problems.push(
        `SITE_URL: ${env.SITE_URL} is public, but development runs the free payment sandbox and the default admin ` +
          'password; set NODE_ENV=production with real keys, or serve the site on localhost',
      );
    }
  }
  return problems;
}
