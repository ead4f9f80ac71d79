import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { AppError } from '../errors';

export const AccessClaims = z.object({
  sub: z.string().min(1),
  role: z.enum(['admin', 'user']),
  ver: z.number().int().nonnegative(),
  /** An admin's e-mail at sign-in, for the audit log's entries of their actions. */
  email: z.string().optional(),
  exp: z.number().int(),
  iat: z.number().int().optional(),
});
export type AccessClaims = z.infer<typeof AccessClaims>;

const ALGORITHM = 'HS256';

export function signAccessToken(
  claims: { sub: string; role: 'admin' | 'user'; ver: number; email?: string },
  secret: string,
  expiresIn: jwt.SignOptions['expiresIn'] = '30d',
): string {
  const payload = { role: claims.role, ver: claims.ver, ...(claims.email ? { email: claims.email } : {}) };
  return jwt.sign(payload, secret, {
    algorithm: ALGORITHM,
    subject: claims.sub,
    expiresIn,
  });
}

export const tokenExpired = () => new AppError('Сессия истекла, войдите снова', 'token_expired', 401);
export const tokenInvalid = () => new AppError('Недействительный токен авторизации', 'token_invalid', 401);

/** Verifies with the algorithm pinned (no `alg: none`, no key confusion); throws a 401 AppError. */
export function verifyAccessToken(token: string, secret: string): AccessClaims {
  let payload: unknown;
  try {
    payload = jwt.verify(token, secret, { algorithms: [ALGORITHM] });
  } catch (err) {
    throw err instanceof jwt.TokenExpiredError ? tokenExpired() : tokenInvalid();
  }
  const parsed = AccessClaims.safeParse(payload);
  if (!parsed.success) throw tokenInvalid();
  return parsed.data;
}

/** Verified tokens an accessTokenVerifier keeps at once; the oldest go first. */
const VERIFIED_TOKENS_MAX = 10_000;

/**
 * verifyAccessToken for a process that sees the same tokens again and again. Verifying an HS256 JWT
 * costs an HMAC, a JSON parse and a schema check; the same token string always verifies to the same
 * claims, so they are kept until the token expires. Only tokens that verified are kept.
 */
export function accessTokenVerifier(secret: string): (token: string) => AccessClaims {
  const verified = new Map<string, AccessClaims>();
  return (token) => {
    const known = verified.get(token);
    if (known) {
      if (known.exp * 1000 > Date.now()) return known;
      verified.delete(token);
    }
    const claims = Object.freeze(verifyAccessToken(token, secret));
    if (verified.size >= VERIFIED_TOKENS_MAX) verified.delete(verified.keys().next().value as string);
    verified.set(token, claims);
    return claims;
  };
}

/** Redis key holding a user's current token version; tokens with an older `ver` are revoked. */
export const tokenVersionKey = (userId: string) => `auth:tokver:${userId}`;

/** Reads `Authorization: Bearer <token>`; undefined when absent. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) throw tokenInvalid();
  return match[1];
}
