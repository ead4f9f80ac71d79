/**
 * Configuration read at runtime, so one build serves every environment.
 *
 * The gateway injects `<script>window.__APP_CONFIG__ = { analyticsId, botUrl }</script>` into
 * index.html; a value missing there falls back to the `VITE_*` variable of the build.
 */
export interface InjectedAppConfig {
  /** Yandex.Metrika counter id (digits). No analytics tag at all when empty. */
  analyticsId?: string | number | null;
  /** Link that opens the Telegram bot, e.g. https://t.me/my_gpt_bot. */
  botUrl?: string | null;
}

declare global {
  interface Window {
    __APP_CONFIG__?: InjectedAppConfig;
  }
}

export interface AppConfig {
  analyticsId: string | null;
  /** Null when neither the gateway nor the build names the bot: the site then asks the bot service. */
  botUrl: string | null;
}

function pick(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  return text === '' ? null : text;
}

/** Reads the injected configuration (cheap; call it where the value is needed). */
export function getAppConfig(): AppConfig {
  const injected = typeof window === 'undefined' ? undefined : window.__APP_CONFIG__;

  const rawAnalyticsId = pick(injected?.analyticsId) ?? pick(import.meta.env.VITE_ANALYTICS_ID);
  // The id ends up inside a script URL and a call: accept digits only.
  const analyticsId = rawAnalyticsId && /^\d{1,20}$/.test(rawAnalyticsId) ? rawAnalyticsId : null;

  const rawBotUrl = pick(injected?.botUrl) ?? pick(import.meta.env.VITE_BOT_URL);
  const botUrl = rawBotUrl && /^https:\/\/t\.me\/\w{4,}/i.test(rawBotUrl) ? rawBotUrl : null;

  return { analyticsId, botUrl };
}
