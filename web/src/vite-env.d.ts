/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Build-time fallback for the analytics counter id (runtime config wins). */
  readonly VITE_ANALYTICS_ID?: string;
  /** Build-time fallback for the Telegram bot link (runtime config wins). */
  readonly VITE_BOT_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** Set by vite.config.ts: true outside a production build, where API answers are checked against the contracts. */
declare const __CHECK_API_ANSWERS__: boolean;
