import ipaddr from 'ipaddr.js';

/*
 * Which addresses an outbound call may reach (docs/security.md, "Outbound calls"): the public internet only. ipaddr.js
 * names the special-purpose range of an address; only `unicast` (no special purpose) passes, so loopback, private
 * (RFC 1918, ULA), link-local, CGNAT, multicast, unspecified, broadcast, IPv4-mapped and -translated, NAT64 (64:ff9b::/96
 * and /48), 6to4, Teredo, benchmarking and the documentation ranges are refused. Two gaps of ipaddr.js are closed here:
 * the IPv4-compatible form ::a.b.c.d (::/96, deprecated by RFC 4291, which ipaddr.js calls unicast once written
 * ::7f00:1 as a URL normalises it) and IPv6 outside 2000::/3, the only block IANA allocates as global unicast.
 */

/** The range an address belongs to: `unicast` is the public internet, anything else a special purpose. */
export function addressRange(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range();
  const v6 = parsed as ipaddr.IPv6;
  const parts = v6.parts;
  // ::/96 but :: and ::1 (their own ranges): an IPv4 address written as IPv6, which some stacks route as that IPv4.
  if (parts.slice(0, 6).every((p) => p === 0) && (parts[6] !== 0 || parts[7]! > 1)) return 'ipv4Compatible';
  const range = v6.range();
  if (range !== 'unicast') return range;
  // 2000::/3: the top three bits are 001.
  return (parts[0]! & 0xe000) === 0x2000 ? 'unicast' : 'reserved';
}

export function isPublicAddress(address: string): boolean {
  return ipaddr.isValid(address) && addressRange(address) === 'unicast';
}
