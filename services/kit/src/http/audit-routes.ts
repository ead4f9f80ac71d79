import {
  InternalAuditAnswer,
  InternalAuditChain,
  InternalAuditQuery,
  internalAuditPath,
  internalAuditVerifyPath,
} from '@gpt/contracts';
import { Router } from 'express';
import type { Kysely } from 'kysely';
import { listAudit, verifyAuditChain } from '../db/audit-log';
import type { KeyValue } from '../kv';
import { requireAuth } from './auth';
import { respond, validate } from './validate';

/**
 * A service's own audit log for the merged «Журнал действий» (docs/architecture.md, The audit log): its
 * newest matching entries and its chain's verification, to an admin's token; never routed by the gateway.
 */
export function internalAuditRouter<DB>(deps: { db: Kysely<DB>; kv: KeyValue; jwtSecret: string }): Router {
  const admin = requireAuth({ secret: deps.jwtSecret, kv: deps.kv, role: 'admin' });
  return Router()
    .get(internalAuditPath, admin, async (req, res) => {
      respond(res, InternalAuditAnswer, await listAudit(deps.db, validate(InternalAuditQuery, req.query)));
    })
    .get(internalAuditVerifyPath, admin, async (_req, res) => {
      respond(res, InternalAuditChain, await verifyAuditChain(deps.db));
    });
}
