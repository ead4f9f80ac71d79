import { randomBytes } from 'node:crypto';
import type {
  AuthResponse,
  ChangePasswordRequest,
  ChangePasswordResponse,
  LoginRequest,
  RegisterRequest,
  UserProfile,
} from '@gpt/contracts';
import { type CachedAnswer, isUniqueViolation, recordAudit, signAccessToken } from '@gpt/kit';
import type { AuthDeps } from '../deps';
import type { AuthConfig } from '../config';
import { type User, usersRepository } from '../data/users.repository';
import { issueEmailConfirmation, mailInBackground } from './email-confirmation';
import { authErrors } from './errors';
import { passwordHasher } from './passwords';
import { publishTokenVersion } from './token-versions';
import { toProfile } from './user-views';
import { inviterOf } from './referrals';
import { userSnapshot } from './user-snapshot';

/** An admin's token names their e-mail, which the audit log records with each of their actions. */
const accessToken = (config: AuthConfig, user: User) =>
  signAccessToken(
    {
      sub: String(user.id),
      role: user.role,
      ver: user.tokenVersion,
      ...(user.role === 'admin' && user.email ? { email: user.email } : {}),
    },
    config.JWT_SECRET,
  );

/** A signed-in answer: a token of the user's current version and the profile. */
export const sessionOf = (config: AuthConfig, user: User): AuthResponse => ({
  token: accessToken(config, user),
  user: toProfile(user),
});

/**
 * Sign-up with e-mail and password from the client address `ip`: the account (not confirmed yet),
 * `user.registered`, the confirmation mail (sent after the answer) and a session.
 */
export async function register(deps: AuthDeps, input: RegisterRequest, ip: string): Promise<AuthResponse> {
  const { config, db, bus, kv } = deps;
  if (await usersRepository(db).findByEmail(input.email)) throw authErrors.emailTaken();
  const passwordHash = await passwordHasher(config).hash(input.password);

  const { user, mail } = await bus
    .transaction(async (trx) => {
      const created = await usersRepository(trx).create({
        email: input.email,
        passwordHash,
        role: 'user',
        utmSource: input.utm_source,
        referredBy: await inviterOf(trx, input.ref),
        emailConfirmedAt: null,
        registrationIp: ip || null,
      });
      await bus.publish(trx, 'user.registered', { ...userSnapshot(created), source: 'web' });
      const confirmation = await issueEmailConfirmation(trx, config, { ...created, email: input.email });
      return { user: created, mail: confirmation };
    })
    .catch((err: unknown) => {
      throw isUniqueViolation(err) ? authErrors.emailTaken() : err;
    });
  mailInBackground(deps, mail);
  // A fresh id may meet a version left in the store by an earlier database: start it clean (best effort,
  // the sign-up itself has succeeded).
  await publishTokenVersion(kv, user).catch((err: unknown) =>
    deps.logger.warn({ err, userId: user.id }, 'token version not written at sign-up'),
  );
  return sessionOf(config, user);
}

// Hashing a throwaway password once gives unknown e-mails the same verification cost as known ones.
let decoyHash: Promise<string> | undefined;

/** Where a sign-in came from, for the audit log's entry of an admin's sign-in. */
export interface SignInClient {
  ip: string | null;
  userAgent: string | null;
}

/**
 * E-mail and password to a session; one 401 whether the e-mail or the password was wrong. An admin's
 * sign-in, and a wrong password for an admin's e-mail, are entries of the audit log.
 */
export async function login(deps: AuthDeps, input: LoginRequest, client: SignInClient): Promise<AuthResponse> {
  const hasher = passwordHasher(deps.config);
  const user = await usersRepository(deps.db).findByEmail(input.email);
  if (!user?.passwordHash) {
    decoyHash ??= hasher.hash(randomBytes(16).toString('hex'));
    await hasher.verify(await decoyHash, input.password);
    throw authErrors.invalidCredentials();
  }
  const verified = await hasher.verify(user.passwordHash, input.password);
  if (user.role === 'admin') {
    const actor = { id: user.id, email: user.email, role: 'admin' as const, ...client };
    await deps.db.transaction().execute((trx) =>
      recordAudit(trx, actor, {
        action: 'admin.sign_in',
        target: { type: 'user', id: user.id, userId: user.id },
        outcome: verified ? 'succeeded' : 'refused',
      }),
    );
  }
  if (!verified) throw authErrors.invalidCredentials();
  return sessionOf(deps.config, user);
}

/** The signed-in user's profile as sent (its JSON made once and kept until the user's row changes). */
export function getProfile(deps: AuthDeps, userId: number): Promise<CachedAnswer<UserProfile>> {
  return deps.profiles.get(String(userId), async () => {
    const user = await usersRepository(deps.db).findById(userId);
    if (!user) throw authErrors.accountGone();
    return toProfile(user);
  });
}

/** A new password revokes every token issued before it; the answer carries the one to use now. */
export async function changePassword(
  deps: AuthDeps,
  userId: number,
  input: ChangePasswordRequest,
): Promise<ChangePasswordResponse> {
  const { config, db, kv } = deps;
  const hasher = passwordHasher(config);
  const user = await usersRepository(db).findById(userId);
  if (!user) throw authErrors.accountGone();
  if (!user.passwordHash || !(await hasher.verify(user.passwordHash, input.currentPassword))) {
    throw authErrors.wrongCurrentPassword();
  }
  const passwordHash = await hasher.hash(input.newPassword);
  const updated = await db.transaction().execute(async (trx) => {
    const changed = await usersRepository(trx).setPassword(userId, passwordHash);
    await publishTokenVersion(kv, changed);
    return changed;
  });
  return { success: true, message: 'Пароль успешно изменен', token: accessToken(config, updated) };
}
