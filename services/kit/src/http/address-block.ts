import { isIPv6 } from 'node:net';

/**
 * The block an address is counted in — by the gateway's rate limits and by billing's welcome grants of
 * one address: an IPv4 address itself, an IPv6 address by its /64 (one customer's network is at least
 * that, so changing the last 64 bits gives no new allowance). Anything else is taken as it is.
 */
export function addressBlock(address: string): string {
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  // An IPv4 tail (::ffff:1.2.3.4) is two groups.
  const groups = [
    ...left,
    ...Array(8 - left.length - right.length - (address.includes('.') ? 1 : 0)).fill('0'),
    ...right,
  ];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
