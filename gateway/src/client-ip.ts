import type { IncomingMessage } from 'node:http';
import { BlockList, isIP, isIPv6 } from 'node:net';

/**
 * The client's address: the socket's peer, unless that peer is one of the listed proxies, in which
 * case X-Forwarded-For is walked from the right past every listed proxy. An empty list trusts no one,
 * so a client cannot pick its own rate-limit bucket by sending the header.
 */
export function createClientIp(trustedProxies: readonly string[]): (req: IncomingMessage) => string {
  if (trustedProxies.length === 0) return (req) => normalize(req.socket.remoteAddress);

  const trusted = new BlockList();
  for (const hop of trustedProxies) {
    const [address, prefix] = hop.split('/');
    const family = isIPv6(address!) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) trusted.addAddress(address!, family);
    else trusted.addSubnet(address!, Number(prefix), family);
  }
  const isTrusted = (ip: string) => trusted.check(ip, isIPv6(ip) ? 'ipv6' : 'ipv4');

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

/** `::ffff:1.2.3.4` is 1.2.3.4 for every purpose here. */
function normalize(ip: string | undefined): string {
  if (!ip) return '';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}
