import type { IncomingMessage } from 'node:http';
import { BlockList, isIP, isIPv6 } from 'node:net';

/**
 * The client's address: the socket's peer, unless that peer is one of the listed proxies, in which
 * case X-Forwarded-For is walked from the right past every listed proxy. An empty list trusts no one,
 * so a client cannot pick its own rate-limit bucket by sending the header.
 */
export function createClientIp(trustedProxies: readonly string[]): (req: IncomingMessage) => string {
  if (trustedProxies.length === 0) return (req) => normalize(req.socket.remoteAddress);
  const isTrusted = trustedMatcher(trustedProxies);

  return (req) => {
    let ip = normalize(req.socket.remoteAddress);
    if (!isTrusted(ip)) return ip;
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = normalize(hops[i]!.trim());
      if (!isIP(hop)) break;
      ip = hop;
      if (!isTrusted(hop)) break;
    }
    return ip;
  };
}

/**
 * Whether the client reached us over HTTPS: our own TLS socket, or X-Forwarded-Proto as set by the
 * nearest proxy when that proxy is one of the trusted ones (a client's own claim counts for nothing).
 */
export function createIsHttps(trustedProxies: readonly string[]): (req: IncomingMessage) => boolean {
  const isTrusted = trustedMatcher(trustedProxies);
  return (req) => {
    if ((req.socket as { encrypted?: boolean }).encrypted) return true;
    const header = req.headers['x-forwarded-proto'];
    if (header === undefined || !isTrusted(normalize(req.socket.remoteAddress))) return false;
    const protos = (Array.isArray(header) ? header.join(',') : header).split(',');
    return protos[protos.length - 1]!.trim().toLowerCase() === 'https';
  };
}

function trustedMatcher(trustedProxies: readonly string[]): (ip: string) => boolean {
  const trusted = new BlockList();
  for (const hop of trustedProxies) {
    const [address, prefix] = hop.split('/');
    const family = isIPv6(address!) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) trusted.addAddress(address!, family);
    else trusted.addSubnet(address!, Number(prefix), family);
  }
  return (ip) => isIP(ip) !== 0 && trusted.check(ip, isIPv6(ip) ? 'ipv6' : 'ipv4');
}

/** `::ffff:1.2.3.4` is 1.2.3.4 for every purpose here. */
function normalize(ip: string | undefined): string {
  if (!ip) return '';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}
