import type { IncomingMessage } from 'node:http';

/**
 * The client behind a request to a service: the gateway writes the client address it trusts into
 * X-Forwarded-For (replacing whatever the client sent), so its first hop is the client; a request
 * that did not come through the gateway has the socket's peer.
 */
export function clientAddress(req: IncomingMessage): string {
  const forwarded = req.headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return first || req.socket.remoteAddress || '';
}
