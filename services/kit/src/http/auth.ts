import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { type AccessClaims, accessTokenVerifier, bearerToken, tokenVersionKey } from '../auth/jwt';
import { AppError, forbidden, unauthorized } from '../errors';
import type { KeyValue } from '../kv';

declare module 'express-serve-static-core' {
  interface Locals {
    claims?: AccessClaims;
  }
}

export const tokenRevoked = () => new AppError('Сессия завершена, войдите снова', 'token_revoked', 401);

/** Verifies the bearer token and its version; a service checks again what the gateway checked. */
export async function authenticateRequest(
  authorization: string | undefined,
  options: { verify: (token: string) => AccessClaims; kv: KeyValue },
): Promise<AccessClaims> {
  const token = bearerToken(authorization);
  if (!token) throw unauthorized();
  const claims = options.verify(token);
  const current = await options.kv.get(tokenVersionKey(claims.sub));
  if (current !== null && claims.ver < Number(current)) throw tokenRevoked();
  return claims;
}

/** Requires a valid token; the claims land in res.locals.claims. */
export function requireAuth(options: { secret: string; kv: KeyValue; role?: 'admin' }): RequestHandler {
  const verify = accessTokenVerifier(options.secret);
  return async (req, res, next) => {
    try {
      const claims = await authenticateRequest(req.headers.authorization, { verify, kv: options.kv });
      if (options.role && claims.role !== options.role) throw forbidden();
      res.locals.claims = claims;
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** Requires the bot's shared key in X-Bot-Key, compared in constant time. */
export function requireBotKey(botApiKey: string): RequestHandler {
  const expected = Buffer.from(botApiKey);
  return (req, _res, next) => {
    const given = Buffer.from(String(req.headers['x-bot-key'] ?? ''));
    const ok = given.length === expected.length && timingSafeEqual(given, expected);
    next(ok ? undefined : unauthorized('Неверный ключ бота', 'invalid_bot_key'));
  };
}
