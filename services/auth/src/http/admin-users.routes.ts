import { type AccessClaims, clientAddress, idempotencyStore, routeHandlers } from '@gpt/kit';
import type { Request } from 'express';
import type { AuthDeps } from '../deps';
import { type AdminActor, deleteUser, listUsers, updateUser, utmStats } from '../domain/admin-users';
import { adminUnlinkTelegram } from '../domain/account-linking';
import { billingClient } from '../domain/billing-client';
import { actingUserId } from './session.routes';

const actorOf = (req: Request, claims: AccessClaims): AdminActor => ({
  id: actingUserId(claims),
  authorization: req.headers.authorization,
  requestId: req.headers['x-request-id'] as string | undefined,
  address: clientAddress(req) || undefined,
  userAgent: req.get('user-agent'),
});

/** The admin users screen: list, UTM statistics, edit, delete, unlink Telegram (admin role checked here too). */
export function adminUsersRoutes(deps: AuthDeps) {
  const billing = billingClient(deps.config);
  const idempotency = idempotencyStore({ ...deps, service: 'auth' });
  return routeHandlers('auth', {
    getAdminUsers: ({ query }) => listUsers(deps, query),
    getAdminUtmStats: () => utmStats(deps),
    putAdminUsersById: {
      idempotency,
      handle: ({ params, body, req, claims, action }) =>
        updateUser(deps, billing, actorOf(req, claims), params.id, body, action),
    },
    deleteAdminUsersById: {
      idempotency,
      handle: ({ params, req, claims, action }) => deleteUser(deps, actorOf(req, claims), params.id, action),
    },
    deleteAdminUsersByIdTelegram: {
      idempotency,
      handle: ({ params, action }) => adminUnlinkTelegram(deps, params.id, action),
    },
  });
}
