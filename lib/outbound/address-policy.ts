import { BlockList, isIP } from "node:net";

/**
 * Addresses a server-side fetch must not reach unless the operator allows private targets:
 * loopback, RFC 1918 and unique-local, link-local (cloud metadata services live there),
 * unspecified, CGNAT, and the reserved and multicast ranges no public service uses.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, "ipv6");
}

/** The IPv4 address inside an IPv4-mapped or IPv4-compatible IPv6 address, from its canonical form (`::ffff:7f00:1`). */
function embeddedIpv4(canonical: string): string | undefined {
  const match = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!match) return undefined;
  const high = Number.parseInt(match[1]!, 16);
  const low = Number.parseInt(match[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** Whether `address` (an IP literal, brackets allowed) is outside the public internet; anything not an IP counts as not public. */
export function isNonPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  const family = isIP(bare);
  if (family === 4) return NOT_PUBLIC.check(bare, "ipv4");
  if (family !== 6) return true;
  // WHATWG URL writes every spelling of an IPv6 address one way, dotted IPv4 tails in hex.
  const canonical = new URL(`http://[${bare}]`).hostname.slice(1, -1);
  const mapped = embeddedIpv4(canonical);
  return mapped === undefined ? NOT_PUBLIC.check(canonical, "ipv6") : NOT_PUBLIC.check(mapped, "ipv4");
}
