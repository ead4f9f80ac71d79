// Secrets for a development start: the code has none of its own, so anyone reading the repository
// cannot sign tokens for a running product.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The secrets every process shares, with the length each is generated at (bytes, base64url). */
export const SHARED_SECRETS = { JWT_SECRET: 48, BOT_API_KEY: 32 };

/** `bytes` random bytes as base64url: letters, digits, `_` and `-`, safe unquoted in any .env file. */
export const randomSecret = (bytes) => randomBytes(bytes).toString('base64url');

/**
 * The secrets `env` does not set, outside production: generated at the first start and kept in
 * `<DATA_DIR>/secrets.json` (owner-only), so tokens and the bot's key survive restarts. Production
 * gets nothing here: its processes refuse to start without the variables.
 * @returns {{ values: Record<string, string>, file?: string }}
 */
export function localSecrets(env) {
  const missing = Object.keys(SHARED_SECRETS).filter((name) => !env[name]);
  if (env.NODE_ENV === 'production' || missing.length === 0) return { values: {} };
  const file = path.resolve(env.DATA_DIR || './data', 'secrets.json');
  const kept = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const fresh = missing.filter((name) => typeof kept[name] !== 'string');
  if (fresh.length > 0) {
    for (const name of fresh) kept[name] = randomSecret(SHARED_SECRETS[name]);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return { values: Object.fromEntries(missing.map((name) => [name, kept[name]])), file };
}
