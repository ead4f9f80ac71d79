import {
  AdminUsersQuery,
  AdminUsersResponse,
  AdminUserUpdateRequest,
  AdminUserUpdateResponse,
  SuccessResponse,
  UserIdParams,
  UtmStatsResponse,
} from '@gpt/contracts';
import { requireAuth, respond, validate } from '@gpt/kit';
import { Router, type Request, type Response } from 'express';
import type { AuthDeps } from '../deps';
import { type AdminActor, deleteUser, listUsers, updateUser, utmStats } from '../domain/admin-users';
import { billingClient } from '../domain/billing-client';
import { actingUserId } from './session.routes';

const actorOf = (req: Request, res: Response): AdminActor => ({
  id: actingUserId(res.locals.claims),
  authorization: req.headers.authorization,
  requestId: req.headers['x-request-id'] as string | undefined,
});

/** The admin users screen: list, UTM statistics, edit, delete (admin role checked here too). */
export function adminUsersRouter(deps: AuthDeps): Router {
  const router = Router();
  const billing = billingClient(deps.config);
  router.use(
    ['/api/admin/users', '/api/admin/utm'],
    requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv, role: 'admin' }),
  );

  router.get('/api/admin/users', async (req, res) => {
    respond(res, AdminUsersResponse, await listUsers(deps, validate(AdminUsersQuery, req.query)));
  });

  router.get('/api/admin/utm/stats', async (_req, res) => {
    respond(res, UtmStatsResponse, await utmStats(deps));
  });

  router.put('/api/admin/users/:id', async (req, res) => {
    const { id } = validate(UserIdParams, req.params);
    const input = validate(AdminUserUpdateRequest, req.body ?? {});
    respond(res, AdminUserUpdateResponse, await updateUser(deps, billing, actorOf(req, res), id, input));
  });

  router.delete('/api/admin/users/:id', async (req, res) => {
    const { id } = validate(UserIdParams, req.params);
    await deleteUser(deps, actorOf(req, res), id);
    respond(res, SuccessResponse, { success: true, message: 'Пользователь удален' });
  });

  return router;
}
