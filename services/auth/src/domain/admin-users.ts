import { type AdminAction, isUniqueViolation } from '@gpt/kit';
import type {
  AdminUserRow,
  AdminUserUpdateRequest,
  AdminUserUpdateResponse,
  AdminUsersQuery,
  AdminUsersResponse,
  BalanceSnapshot,
  UtmStatsResponse,
} from '@gpt/contracts';
import type { AuthDeps } from '../deps';
import { type User, type UserChanges, usersRepository } from '../data/users.repository';
import type { BillingClient } from './billing-client';
import { authErrors } from './errors';
import { changingProfiles } from './profile-cache';
import { publishTokenVersion, revokeDeletedAccount } from './token-versions';
import { toAdminRow } from './user-views';
import { userSnapshot } from './user-snapshot';

/** Who acts, and what to forward to billing on their behalf (its audit entry names their address and browser). */
export interface AdminActor {
  id: number;
  authorization?: string;
  requestId?: string;
  address?: string;
  userAgent?: string;
}

export async function listUsers(deps: AuthDeps, query: AdminUsersQuery): Promise<AdminUsersResponse> {
  const { users, total } = await usersRepository(deps.db).list(query);
  return { users: await adminRows(deps.db, users), total };
}

/** Rows of the admin list, each naming its inviter. */
async function adminRows(db: AuthDeps['db'], users: User[]): Promise<AdminUserRow[]> {
  const inviters = users.flatMap((user) => (user.referredBy === null ? [] : [user.referredBy]));
  const labels = await usersRepository(db).referrerLabels(inviters);
  return users.map((user) => toAdminRow(user, user.referredBy === null ? null : (labels.get(user.referredBy) ?? null)));
}

export async function utmStats(deps: AuthDeps): Promise<UtmStatsResponse> {
  const stats = await usersRepository(deps.db).utmStats();
  return { stats: stats.map((stat) => ({ utm_source: stat.utmSource, count: stat.count })) };
}

function profileChanges(user: User, input: AdminUserUpdateRequest): UserChanges {
  const changes: UserChanges = {};
  if (input.email !== undefined && input.email !== user.email) changes.email = input.email;
  if (input.role !== undefined && input.role !== user.role) changes.role = input.role;
  return changes;
}

/** Billing's part of an edit: a deposit of credits and a different tariff. */
function billingChanges(user: User, input: AdminUserUpdateRequest) {
  const deposit = input.depositAmount ?? 0;
  const tariffId = input.tariff_id ?? null;
  return {
    ...(deposit > 0 ? { deposit_credits: deposit } : {}),
    ...(tariffId !== null && tariffId !== user.balance.tariffId ? { tariff_id: tariffId } : {}),
  };
}

/** Refuses removing the admin role from the last admin; `adminIds` are the locked admin rows. */
function assertAnotherAdminRemains(adminIds: number[], target: User): void {
  if (target.role === 'admin' && !adminIds.some((id) => id !== target.id)) throw authErrors.lastAdmin();
}

/**
 * The admin's edit: e-mail and role here (a role change revokes the user's tokens), deposit and
 * tariff through billing first, whose answer lands in the projection in the same transaction, so
 * the reloaded list shows it at once. Nothing changes here if billing refuses. Billing's action id
 * is the key's: a retry after a lost answer finds billing's entry made and adds nothing.
 */
export async function updateUser(
  deps: AuthDeps,
  billing: BillingClient,
  actor: AdminActor,
  userId: number,
  input: AdminUserUpdateRequest,
  action: AdminAction,
): Promise<AdminUserUpdateResponse> {
  const { db, bus, kv } = deps;
  const target = await usersRepository(db).findById(userId);
  if (!target) throw authErrors.userNotFound();
  const changes = profileChanges(target, input);
  if (changes.role === 'user' && userId === actor.id) throw authErrors.cannotDemoteSelf();
  if (changes.email) {
    const owner = await usersRepository(db).findByEmail(changes.email);
    if (owner && owner.id !== userId) throw authErrors.emailTaken();
  }

  const adjustment = billingChanges(target, input);
  let balance: BalanceSnapshot | undefined;
  if (Object.keys(adjustment).length > 0) {
    balance = await billing.adjust(
      {
        user_id: userId,
        admin_id: actor.id,
        action_id: action.actionId,
        ...adjustment,
        ...(input.reason ? { reason: input.reason } : {}),
        ...(action.key ? { idempotency_key: action.key } : {}),
      },
      actor,
    );
  }

  return changingProfiles(deps, async (trx, changed) => {
    // Admin rows first, then the target: one lock order for every edit and delete.
    const adminIds = changes.role ? await usersRepository(trx).lockAdmins() : [];
    const current = await usersRepository(trx).findByIdForUpdate(userId);
    if (!current) throw authErrors.userNotFound();
    changed(userId);
    if (balance) await usersRepository(trx).applyBalance(balance);
    const fresh = profileChanges(current, input);
    let updated: User;
    if (Object.keys(fresh).length === 0) {
      updated = (await usersRepository(trx).findById(userId))!;
    } else {
      if (fresh.role) assertAnotherAdminRemains(adminIds, current);
      updated = await usersRepository(trx).update(userId, fresh, { revokeTokens: fresh.role !== undefined });
      await action.record(trx, {
        action: 'user.update',
        target: { type: 'user', id: userId, userId },
        before: { email: current.email, role: current.role },
        after: { email: updated.email, role: updated.role },
        reason: input.reason ?? null,
      });
      await bus.publish(trx, 'user.updated', {
        ...userSnapshot(updated),
        updated_at: updated.updatedAt.toISOString(),
      });
      if (fresh.role) await publishTokenVersion(kv, updated);
    }
    const [row] = await adminRows(trx, [updated]);
    const answer = { success: true as const, user: row! };
    await action.keep(trx, answer);
    return answer;
  }).catch((err: unknown) => {
    throw isUniqueViolation(err) ? authErrors.emailTaken() : err;
  });
}

/** Deletes an account (`user.deleted`) and revokes its tokens; never oneself, never the last admin. */
export async function deleteUser(
  deps: AuthDeps,
  actor: AdminActor,
  userId: number,
  action: AdminAction,
): Promise<{ success: true; message: string }> {
  const { bus, kv } = deps;
  if (userId === actor.id) throw authErrors.cannotDeleteSelf();
  return changingProfiles(deps, async (trx, changed) => {
    const adminIds = await usersRepository(trx).lockAdmins();
    const target = await usersRepository(trx).findByIdForUpdate(userId);
    if (!target) throw authErrors.userNotFound();
    assertAnotherAdminRemains(adminIds, target);
    await usersRepository(trx).delete(userId);
    await action.record(trx, {
      action: 'user.delete',
      target: { type: 'user', id: userId, userId },
      before: { email: target.email, role: target.role },
    });
    changed(userId);
    await bus.publish(trx, 'user.deleted', {
      user_id: userId,
      email: target.email,
      deleted_at: new Date().toISOString(),
      version: target.version + 1,
    });
    await revokeDeletedAccount(kv, target);
    const answer = { success: true as const, message: 'Пользователь удален' };
    await action.keep(trx, answer);
    return answer;
  });
}
