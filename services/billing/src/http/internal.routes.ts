import { BalanceSnapshot, InternalAdminAdjustmentRequest, UserIdParams } from '@gpt/contracts';
import { clientAddress, requireAuth, respond, validate } from '@gpt/kit';
import { Router } from 'express';
import type { BillingDeps } from '../deps';
import { applyAdminAdjustment } from '../domain/admin-adjustment';
import { billingErrors } from '../domain/errors';

/**
 * Calls from other services, never routed by the gateway (docs/architecture.md, Calls between services): auth applies the
 * admin's deposit and tariff change here so the reloaded users list shows them at once. auth
 * forwards the acting admin's token, so billing checks the role and that the admin is who acts.
 */
export function internalRouter(deps: BillingDeps): Router {
  const admin = requireAuth({ secret: deps.config.JWT_SECRET, kv: deps.kv, role: 'admin' });
  return Router().post('/internal/users/:id/adjustments', admin, async (req, res) => {
    const { id } = validate(UserIdParams, req.params);
    const request = validate(InternalAdminAdjustmentRequest, { user_id: id, ...req.body });
    if (request.user_id !== id) throw billingErrors.userIdMismatch();
    const claims = res.locals.claims;
    if (String(request.admin_id) !== claims?.sub) {
      throw billingErrors.adminMismatch();
    }
    const actor = {
      id: request.admin_id,
      email: claims.email ?? null,
      role: 'admin' as const,
      ip: clientAddress(req) || null,
      userAgent: req.get('user-agent') ?? null,
    };
    respond(res, BalanceSnapshot, await applyAdminAdjustment(deps, request, actor));
  });
}
