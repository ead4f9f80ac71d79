import { BlockList, isIP } from 'node:net';
import type { RequestHandler } from 'express';
import { billingErrors } from '../domain/errors';

/** Real CIDR matching over IPv4 and IPv6 addresses and subnets. */
export function addressMatcher(entries: readonly string[]): (ip: string) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (ip) => {
    const family = isIP(ip);
    return family !== 0 && list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** `::ffff:1.2.3.4` is 1.2.3.4 for every purpose here. */
function normalize(ip: string | undefined): string {
  if (!ip) return '';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}

/**
 * Who sent a request: the socket's peer, or, when that peer is one of `trustedProxies` (the
 * gateway), the address the gateway wrote last into X-Forwarded-For. Nobody else's header is believed.
 */
export function requestSource(trustedProxies: readonly string[]): (req: Parameters<RequestHandler>[0]) => string {
  const isProxy = addressMatcher(trustedProxies);
  return (req) => {
    const peer = normalize(req.socket.remoteAddress);
    if (!isProxy(peer)) return peer;
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
    const last = normalize(hops[hops.length - 1]?.trim());
    return isIP(last) ? last : peer;
  };
}

/**
 * The optional allowlist of the provider's notification addresses (YOOKASSA_TRUSTED_IPS): with
 * entries, a notification from anywhere else is refused with 403; without, everyone may knock
 * (the notification is believed only after re-fetching the payment anyway).
 */
export function notificationSourceGuard(options: { allowed: readonly string[]; trustedProxies: readonly string[] }) {
  const pass: RequestHandler = (_req, _res, next) => next();
  if (options.allowed.length === 0) return pass;
  const isAllowed = addressMatcher(options.allowed);
  const sourceOf = requestSource(options.trustedProxies);
  const guard: RequestHandler = (req, _res, next) => {
    const source = sourceOf(req);
    if (isAllowed(source)) {
      next();
      return;
    }
    req.log.warn({ source }, 'payment notification from an address outside the allowlist');
    next(billingErrors.untrustedNotificationSource());
  };
  return guard;
}
