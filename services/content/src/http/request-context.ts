import type { Request } from 'express';
import type { Visitor } from '../domain/view-counter';

/** The visitor behind a request: the gateway puts the client address it trusts in X-Forwarded-For. */
export function visitorOf(req: Request): Visitor {
  const forwarded = req.headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return { ip: first || req.socket.remoteAddress || '', userAgent: req.headers['user-agent'] ?? '' };
}
