import { clientAddress } from '@gpt/kit';
import type { Request } from 'express';
import type { Visitor } from '../domain/view-counter';

/** The visitor behind a request: the gateway puts the client address it trusts in X-Forwarded-For. */
export function visitorOf(req: Request): Visitor {
  return { ip: clientAddress(req), userAgent: req.headers['user-agent'] ?? '' };
}
