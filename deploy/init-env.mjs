// `npm run env:init`: writes `.env` (from .env.example) with fresh random secrets, so a production start
// (`docker compose up`) has what it needs, and says what is still to fill. An existing .env is kept
// unless `-- --force` is given. Writes into the current folder (npm runs it at the repository root).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomSecret, SHARED_SECRETS } from './local-secrets.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Generated here (bytes of randomness each). */
const GENERATED = { ...SHARED_SECRETS, ADMIN_PASSWORD: 18, TELEGRAM_WEBHOOK_SECRET: 32 };
/** Set to a working value the owner may change. */
const PRESET = { ADMIN_EMAIL: 'admin@example.com', SITE_URL: 'http://localhost:8080' };
/** Only the owner can give these; production refuses to start without the first group. */
const REQUIRED = [
  ['YOOKASSA_SHOP_ID, YOOKASSA_SECRET_KEY', 'billing: the YooKassa shop id and secret key'],
  ['LLM_API_URL', 'bot: an OpenAI-compatible model API (https://…/v1), with its LLM_API_KEY'],
];
const OPTIONAL = [
  ['TELEGRAM_BOT_TOKEN', 'bot: the token from @BotFather (unset: the site runs, Telegram is off)'],
  ['TELEGRAM_WEBHOOK_URL', 'bot: https://<your site>/api/telegram/webhook for webhook mode (unset: long polling)'],
];

/** .env.example with `values` filled in, every comment kept in place. */
function fill(example, values) {
  return example.replace(/^([A-Z][A-Z0-9_]*)=(\S*)([ \t]*)(#.*)?$/gm, (line, name, _old, gap, comment) => {
    if (!(name in values)) return line;
    const assignment = `${name}=${values[name]}`;
    if (!comment) return assignment;
    return `${assignment}${' '.repeat(Math.max(1, line.indexOf('#') - assignment.length))}${comment}`;
  });
}

const target = path.resolve('.env');
if (existsSync(target) && !process.argv.includes('--force')) {
  console.error(`${target} exists and is kept. To replace it with fresh secrets: npm run env:init -- --force`);
  process.exit(1);
}
const values = {
  ...PRESET,
  ...Object.fromEntries(Object.entries(GENERATED).map(([name, bytes]) => [name, randomSecret(bytes)])),
};
writeFileSync(target, fill(readFileSync(path.join(root, '.env.example'), 'utf8'), values), { mode: 0o600 });

const list = (rows) => rows.map(([names, what]) => `  ${names} — ${what}`).join('\n');
console.log(`Wrote ${target} with fresh ${Object.keys(GENERATED).join(', ')}.
The admin is ${PRESET.ADMIN_EMAIL} with the ADMIN_PASSWORD written there; SITE_URL is ${PRESET.SITE_URL}
(set it to the site's public origin).

Still to fill in .env — in production (docker compose) billing and the bot refuse to start without them:
${list(REQUIRED)}

Optional:
${list(OPTIONAL)}`);
