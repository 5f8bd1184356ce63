import { BlockList, isIP } from "node:net";
import type { HeaderReader, IncomingRequest } from "./message";

/** Whether a peer is a proxy whose forwarding headers we believe. */
export type TrustedProxies = (address: string) => boolean;

/** Addresses whose trust is remembered; past this the oldest is forgotten. */
const MAX_KNOWN_PEERS = 10_000;

/** `::ffff:192.0.2.1` is the IPv4 peer 192.0.2.1 on a dual-stack socket. */
function plainAddress(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
}

/**
 * `TRUSTED_PROXIES`: comma-separated addresses and CIDR ranges, IPv4 or IPv6.
 * Throws on an entry that is neither, so a typo cannot silently trust nobody.
 */
export function parseTrustedProxies(list: string | undefined): TrustedProxies {
  const entries = (list ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return () => false;
  const blocks = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address);
    if (family === 0) throw new Error(`"${entry}" is not an IP address or CIDR range`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) blocks.addAddress(address, type);
    else {
      const bits = Number(prefix);
      if (!/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128)) throw new Error(`"${entry}" has an invalid prefix length`);
      blocks.addSubnet(address, bits, type);
    }
  }
  // BlockList.check builds a SocketAddress per call, 3 % of the gateway's CPU when proxying;
  // a request's peer is almost always one seen before (a load balancer, a kept-alive client).
  const known = new Map<string, boolean>();
  return (address) => {
    let trusted = known.get(address);
    if (trusted !== undefined) return trusted;
    const plain = plainAddress(address);
    const family = isIP(plain);
    // Only addresses are remembered: a hop a client wrote can be any string, of any length.
    if (family === 0) return false;
    trusted = blocks.check(plain, family === 4 ? "ipv4" : "ipv6");
    if (known.size >= MAX_KNOWN_PEERS) known.delete(known.keys().next().value!);
    known.set(address, trusted);
    return trusted;
  };
}

/** The `for=` nodes of RFC 7239 `Forwarded`, without quotes, brackets or ports. */
function forwardedFor(value: string): string[] {
  return value.split(",").flatMap((element) => {
    const match = /(?:^|;)\s*for\s*=\s*("?)([^";,]*)\1/i.exec(element);
    if (!match) return [];
    const node = match[2]!.trim();
    const bracketed = /^\[([^\]]+)\]/.exec(node);
    if (bracketed) return [bracketed[1]!];
    return [/^[\d.]+:\d+$/.test(node) ? node.slice(0, node.lastIndexOf(":")) : node];
  });
}

/** The hops a proxy chain reports, nearest last: X-Forwarded-For, or `Forwarded` when there is none. */
function reportedHops(headers: Pick<HeaderReader, "get">): string[] {
  const xff = headers.get("x-forwarded-for");
  if (xff !== null)
    return xff
      .split(",")
      .map((hop) => hop.trim())
      .filter(Boolean);
  const forwarded = headers.get("forwarded");
  return forwarded === null ? [] : forwardedFor(forwarded);
}

/**
 * The client's address: the socket's peer, unless that peer is a trusted
 * proxy, in which case the hop it reports is believed, and so on leftwards
 * while the hops are trusted proxies too. Anything a client writes to the left
 * of the first untrusted hop is never read.
 */
export function resolveClientAddress(peer: string, headers: Pick<HeaderReader, "get">, trusted: TrustedProxies): string {
  let address = plainAddress(peer);
  if (!trusted(address)) return address;
  const hops = reportedHops(headers);
  while (trusted(address) && hops.length > 0) address = plainAddress(hops.pop()!);
  return address;
}

/** The client's address of a request; behind Next (`next dev`) the peer is the last X-Forwarded-For hop, which Next writes. */
export function requestClientAddress(request: Pick<IncomingRequest, "headers" | "remoteAddress">, trusted: TrustedProxies): string {
  const peer = request.remoteAddress ?? request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
  return peer ? resolveClientAddress(peer, request.headers, trusted) : "unknown";
}
