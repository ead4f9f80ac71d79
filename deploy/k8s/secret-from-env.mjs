// The Kubernetes Secret `gpt-secrets` from a .env that `npm run env:init` wrote and you filled in:
//   node deploy/k8s/secret-from-env.mjs .env | kubectl apply --namespace gpt -f -
// Only the secret values go in (the rest of the configuration is the overlay's ConfigMap); empty
// ones are left out. Prints the manifest as JSON, which kubectl reads like YAML.
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { pathToFileURL } from 'node:url';

/** What `npm run env:init` generates or asks for that is secret, and the servers' URLs (they carry passwords). */
export const SECRET_KEYS = [
  'JWT_SECRET',
  'BOT_API_KEY',
  'ADMIN_PASSWORD',
  'TELEGRAM_WEBHOOK_SECRET',
  'TELEGRAM_BOT_TOKEN',
  'YOOKASSA_SHOP_ID',
  'YOOKASSA_SECRET_KEY',
  'LLM_API_KEY',
  'SMTP_URL',
  'DATABASE_URL',
  'AMQP_URL',
  'REDIS_URL',
];

/** The Secret's manifest for the values of `env`. */
export function secretManifest(env) {
  const stringData = Object.fromEntries(SECRET_KEYS.filter((key) => env[key]).map((key) => [key, env[key]]));
  return { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: 'gpt-secrets' }, stringData };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2] ?? '.env';
  console.log(JSON.stringify(secretManifest(parseEnv(readFileSync(file, 'utf8'))), null, 2));
}
