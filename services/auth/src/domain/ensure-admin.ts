import { tokenVersionKey } from '@gpt/kit';
import type { AuthDeps } from '../deps';
import { DEV_ADMIN } from '../config';
import { usersRepository } from '../data/users.repository';
import { passwordHasher } from './passwords';
import { changingProfiles } from './profile-cache';
import { userSnapshot } from './user-snapshot';

/** At start: the admin of ADMIN_EMAIL exists and is an admin (created, or an existing user promoted). */
export async function ensureAdmin(deps: AuthDeps): Promise<void> {
  const { config, logger, db, bus, kv } = deps;
  const email = (config.ADMIN_EMAIL ?? DEV_ADMIN.email).toLowerCase();
  if (!config.ADMIN_EMAIL) {
    // The point of this line is to tell a developer the password, so it is in the message and in no
    // field (a field named password would be redacted beside it).
    logger.warn(
      { email },
      `Development admin: ${email} / ${DEV_ADMIN.password} (set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own)`,
    );
  }
  const existing = await usersRepository(db).findByEmail(email);
  if (existing?.role === 'admin') return;
  const passwordHash = existing ? null : await passwordHasher(config).hash(config.ADMIN_PASSWORD ?? DEV_ADMIN.password);

  const admin = await changingProfiles(deps, async (trx, changed) => {
    if (existing) {
      const promoted = await usersRepository(trx).setRole(existing.id, 'admin');
      changed(promoted.id);
      await bus.publish(trx, 'user.updated', {
        ...userSnapshot(promoted),
        updated_at: promoted.updatedAt.toISOString(),
      });
      return promoted;
    }
    // The admin's address is theirs by configuration: confirmed at creation.
    const created = await usersRepository(trx).create({
      email,
      passwordHash: passwordHash!,
      role: 'admin',
      emailConfirmedAt: new Date(),
    });
    await bus.publish(trx, 'user.registered', { ...userSnapshot(created), source: 'web' });
    return created;
  });
  await kv.set(tokenVersionKey(String(admin.id)), String(admin.tokenVersion));
  logger.info({ email, promoted: Boolean(existing) }, existing ? 'user promoted to admin' : 'admin created');
}
