import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet, { type HelmetOptions } from 'helmet';

export type HeaderList = ReadonlyArray<readonly [name: string, value: string]>;

/** Yandex Metrika, the analytics tag the web app loads on public pages. */
const ANALYTICS_SCRIPTS = ['https://mc.yandex.ru', 'https://yastatic.net'];
const ANALYTICS_BEACONS = ['https://mc.yandex.ru', 'https://mc.yandex.com'];
/** The Telegram Login Widget on /login: its script, and the frame with Telegram's button it draws. */
const TELEGRAM_WIDGET_SCRIPT = 'https://telegram.org';
const TELEGRAM_WIDGET_FRAME = 'https://oauth.telegram.org';

/** Sent only on requests that came over HTTPS (the gateway's own TLS, or a trusted proxy's X-Forwarded-Proto). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

const common = {
  strictTransportSecurity: false,
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
} satisfies HelmetOptions;

/**
 * Helmet's headers for pages: a CSP that admits our own files, the analytics tag and the one
 * inline script we inject (by its hash), and no framing by anyone.
 */
export function pageSecurityHeaders(inlineScriptHashes: readonly string[]): HeaderList {
  return helmetHeaders({
    ...common,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: [
          "'self'",
          ...inlineScriptHashes.map((hash) => `'${hash}'`),
          ...ANALYTICS_SCRIPTS,
          TELEGRAM_WIDGET_SCRIPT,
        ],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Articles show images from wherever the admin links them.
        imgSrc: ["'self'", 'data:', 'blob:', ...ANALYTICS_BEACONS, 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...ANALYTICS_BEACONS],
        frameSrc: ["'self'", ...ANALYTICS_BEACONS, TELEGRAM_WIDGET_FRAME],
        objectSrc: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
}

/**
 * Helmet's headers for API answers: JSON never needs to load anything or be framed. The headers that
 * only mean something for documents (opener policy, agent cluster, DNS prefetch, IE's download and
 * XSS switches, Flash's cross-domain policy) are left out: they would be sent on every API call for nothing.
 */
export function apiSecurityHeaders(): HeaderList {
  return helmetHeaders({
    ...common,
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
}

/**
 * Runs helmet once against a throwaway response and keeps what it set: the values never change per
 * request, so the hot path copies a precomputed list instead of running a dozen middlewares.
 */
function helmetHeaders(options: HelmetOptions): HeaderList {
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  let failure: unknown;
  helmet(options)(res.req, res, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return Object.entries(res.getHeaders()).map(([name, value]) => [name, String(value)] as const);
}

/** Sets a precomputed header list on a response. */
export function applyHeaders(res: ServerResponse, headers: HeaderList): void {
  for (let i = 0; i < headers.length; i++) {
    const header = headers[i]!;
    res.setHeader(header[0], header[1]);
  }
}
