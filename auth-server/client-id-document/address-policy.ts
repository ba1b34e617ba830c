/**
 * Which network addresses the issuer may connect to when it fetches a Client ID Metadata
 * Document. The `client_id` is chosen by whoever starts an authorization request, so without
 * this list anyone could make the issuer send requests into its own network (SSRF; RFC 9700
 * §4.16 and the CIMD draft's security considerations: the server "SHOULD NOT" fetch from
 * "special-use IP addresses"). Only public unicast addresses pass: private, loopback,
 * link-local, unique-local, multicast, unspecified, shared (CGNAT), documentation, benchmarking
 * and reserved ranges are refused, as are IPv6 forms that carry an IPv4 address (mapped,
 * NAT64, 6to4, Teredo), judged by the IPv4 address inside where Node's BlockList can (mapped).
 * Loopback may be let through for development (`--dev`); nothing else ever is.
 */
import { BlockList, isIP } from 'node:net';

const REFUSED_V4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network", including the unspecified 0.0.0.0
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // shared address space (RFC 6598)
  ['169.254.0.0', 16], // link-local, cloud metadata services among them
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

const REFUSED_V6: readonly [string, number][] = [
  ['::', 128], // unspecified
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64: reaches any IPv4 address, private ones included
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments, Teredo among them
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: carries an IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const LOOPBACK: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
];

function blockListOf(ranges: readonly [string, number, 'ipv4' | 'ipv6'][]): BlockList {
  const list = new BlockList();
  for (const [network, prefix, family] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

const REFUSED = blockListOf([
  ...REFUSED_V4.map(([n, p]): [string, number, 'ipv4'] => [n, p, 'ipv4']),
  ...REFUSED_V6.map(([n, p]): [string, number, 'ipv6'] => [n, p, 'ipv6']),
  ...LOOPBACK,
]);
const LOOPBACK_LIST = blockListOf(LOOPBACK);

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, `::ffff:7f00:1`). */
function unmapIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted?.[1] && isIP(dotted[1]) === 4) return dotted[1];
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex?.[1] || !hex[2]) return undefined;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True when `address` (an IP literal, brackets allowed) is one the issuer may connect to. */
export function isPublicAddress(address: string, options: { allowLoopback?: boolean } = {}): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 0) return false;
  // A mapped address is judged as the IPv4 address it reaches.
  const inner = family === 4 ? bare : unmapIpv4(bare);
  const [value, type] = inner === undefined ? [bare, 'ipv6' as const] : [inner, 'ipv4' as const];
  if (options.allowLoopback && LOOPBACK_LIST.check(value, type)) return true;
  return !REFUSED.check(value, type);
}

/** True for an IP literal that is loopback (127/8, ::1, or a mapped 127/8). */
export function isLoopbackAddress(address: string): boolean {
  return !isPublicAddress(address) && isPublicAddress(address, { allowLoopback: true });
}
