import { isIPv4, isIPv6 } from 'node:net';
import { trustedProxyCount } from '@/lib/platform/config';

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? null);
}

/**
 * The address a request came from, as far as the server can know it, for the per-address throttles.
 *
 * Route handlers in Next.js never see the socket: `next start` puts its address in `X-Forwarded-For` — only when the
 * request does not carry that header already. Behind TRUST_PROXY reverse proxies that each append the address they
 * see, the client is the entry TRUST_PROXY places from the right (what the outermost proxy saw); entries further left
 * are whatever the client wrote. Without a proxy (TRUST_PROXY=0) it is the rightmost entry: Next.js's own, unless the
 * client sent the header itself, which a client facing `next start` directly can therefore choose (docs/security.md).
 *
 * IPv4-mapped IPv6 addresses are IPv4; an IPv6 address counts as its /64 (one subscriber's network, which its holder
 * can rotate through freely). Anything that is not an address is "unknown".
 */
export function clientAddress(headers: HeaderSource): string {
  const entries = (header(headers, 'x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const entry = entries[entries.length - Math.max(1, trustedProxyCount())];
  return entry ? normalizeAddress(entry) : 'unknown';
}

export function normalizeAddress(raw: string): string {
  let address = raw.trim();
  // "[2001:db8::1]:443" and "203.0.113.9:8080" (some proxies add the port)
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  address = address.replace(/%.*$/, ''); // zone index
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) address = mapped[1]!;
  if (isIPv4(address)) return address;
  if (isIPv6(address)) return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
  return 'unknown';
}

/** The eight 16-bit groups of a valid IPv6 address, in lower-case hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  const toGroups = (part: string) => {
    if (!part) return [];
    const groups = part.split(':');
    const last = groups.at(-1)!;
    // A trailing dotted IPv4 (::ffff:1.2.3.4 forms) is two groups.
    if (last.includes('.')) {
      const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
      groups.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
    }
    return groups;
  };
  const [head, tail] = address.split('::') as [string, string | undefined];
  const left = toGroups(head);
  const right = tail === undefined ? [] : toGroups(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => Number.parseInt(g, 16).toString(16));
}
