import { BlockList, isIP } from "node:net";

/**
 * IPv4 addresses a server-side fetch must not reach unless the operator allows private
 * targets: every block of the IANA IPv4 special-purpose registry (loopback, RFC 1918,
 * link-local where cloud metadata services live, CGNAT, documentation, benchmarking, the
 * anycast blocks of AS112, AMT and 6to4 relays), multicast, and the reserved 240/4 with the
 * broadcast address. No service Gatehouse fetches from lives in any of them.
 */
const NOT_PUBLIC_IPV4 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.31.196.0", 24],
  ["192.52.193.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["192.175.48.0", 24],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NOT_PUBLIC_IPV4.addSubnet(network, prefix, "ipv4");
}

/**
 * The blocks of the IANA IPv6 special-purpose registry inside global unicast (2000::/3): the
 * IETF protocol assignments (Teredo, benchmarking, ORCHID, AMT, AS112 among them),
 * documentation, and AS112's direct delegation. 6to4 (2002::/16) is checked by the IPv4
 * address it carries instead.
 */
const NOT_PUBLIC_GLOBAL_IPV6 = new BlockList();
for (const [network, prefix] of [
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2620:4f:8000::", 48],
  ["3fff::", 20],
] as const) {
  NOT_PUBLIC_GLOBAL_IPV6.addSubnet(network, prefix, "ipv6");
}

/** The eight 16-bit groups of an IPv6 address in WHATWG URL's canonical form (compressed, hex only). */
function groupsOf(canonical: string): number[] {
  const [head = "", tail] = canonical.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)));
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/**
 * The IPv4 address an IPv6 address stands for, where packets to it reach that IPv4 address:
 * IPv4-compatible (::/96, which holds `::` and `::1` too), IPv4-mapped (::ffff:0:0/96),
 * SIIT's IPv4-translated (::ffff:0:0:0/96), NAT64's well-known prefix (64:ff9b::/96) and 6to4
 * (2002::/16). A NAT64 prefix an operator chose for its own network cannot be recognised;
 * the local-use one (64:ff9b:1::/48) is refused whole, being outside global unicast.
 */
function embeddedIpv4(groups: readonly number[]): string | undefined {
  const zero = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  const [first, second, third, , fifth, sixth, seventh, eighth] = groups as [number, number, number, number, number, number, number, number];
  if (zero(0, 5) && (sixth === 0 || sixth === 0xffff)) return ipv4Of(seventh, eighth);
  if (zero(0, 4) && fifth === 0xffff && sixth === 0) return ipv4Of(seventh, eighth);
  if (first === 0x64 && second === 0xff9b && zero(2, 6)) return ipv4Of(seventh, eighth);
  if (first === 0x2002) return ipv4Of(second, third);
  return undefined;
}

/** Whether `address` (an IP literal, brackets allowed) is outside the public internet; anything not an IP counts as not public. */
export function isNonPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  const family = isIP(bare);
  if (family === 4) return NOT_PUBLIC_IPV4.check(bare, "ipv4");
  // A zone index (`fe80::1%eth0`) names a local interface: never a public address.
  if (family !== 6 || bare.includes("%")) return true;
  // WHATWG URL writes every spelling of an IPv6 address one way, dotted IPv4 tails in hex.
  const canonical = new URL(`http://[${bare}]`).hostname.slice(1, -1);
  const groups = groupsOf(canonical);
  const ipv4 = embeddedIpv4(groups);
  if (ipv4 !== undefined) return NOT_PUBLIC_IPV4.check(ipv4, "ipv4");
  // Outside 2000::/3, the only space IANA allocates as global unicast, lie loopback,
  // unique-local, link-local, multicast, SRv6 SIDs (5f00::/16), discard-only (100::/64) and reserved space.
  const globalUnicast = (groups[0]! & 0xe000) === 0x2000;
  return !globalUnicast || NOT_PUBLIC_GLOBAL_IPV6.check(canonical, "ipv6");
}
