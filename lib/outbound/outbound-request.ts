import { lookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { Agent, request } from "undici";
import { isNonPublicAddress } from "./address-policy";
import { oneLookupAtATime, type Resolve } from "./serial-lookups";

/**
 * Every URL the server fetches on a user's behalf (a credential's `jwks_uri`, an OIDC
 * issuer's discovery document and keys) goes through `outboundRequest`, under one policy.
 */
export type OutboundPolicy = {
  /** OUTBOUND_ALLOW_PRIVATE: loopback, private and link-local targets, and plain http, are allowed */
  allowPrivate: boolean;
  /** resolves a host name to all its addresses; node:dns by default */
  resolve?: Resolve;
  timeoutMs?: number;
  maxBytes?: number;
};

export const OUTBOUND_TIMEOUT_MS = 5_000;
export const OUTBOUND_MAX_BYTES = 256 * 1024;

/** Why a fetch was refused or failed, for the server log; callers answer their own client without it. */
export class OutboundError extends Error {}

type Address = { address: string; family: number };

const systemResolve = oneLookupAtATime((hostname) => lookup(hostname, { all: true, verbatim: true }), OUTBOUND_TIMEOUT_MS);

function targetOf(url: string, allowPrivate: boolean): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new OutboundError(`"${url.slice(0, 200)}" is not a URL`);
  }
  if (target.protocol !== "https:" && !(target.protocol === "http:" && allowPrivate)) {
    throw new OutboundError(`${target.origin} is refused: only https URLs are fetched (http only with OUTBOUND_ALLOW_PRIVATE=1)`);
  }
  if (target.username || target.password) throw new OutboundError(`${target.origin} is refused: URLs with credentials are not fetched`);
  return target;
}

/** The addresses to connect to, each checked: a host with one non-public address is refused whole. */
async function checkedAddresses(hostname: string, policy: OutboundPolicy): Promise<Address[]> {
  const bare = hostname.replace(/^\[(.*)\]$/, "$1");
  const family = isIP(bare);
  let addresses: Address[];
  try {
    addresses = family ? [{ address: bare, family }] : [...(await (policy.resolve ?? systemResolve)(bare))];
  } catch (error) {
    throw new OutboundError(`${hostname} does not resolve: ${(error as Error).message}`);
  }
  if (addresses.length === 0) throw new OutboundError(`${hostname} resolves to no address`);
  const refused = policy.allowPrivate ? undefined : addresses.find((entry) => isNonPublicAddress(entry.address));
  if (refused) {
    throw new OutboundError(`${hostname} resolves to ${refused.address}, which is not a public address (OUTBOUND_ALLOW_PRIVATE=1 allows it)`);
  }
  return addresses;
}

/** Connects only to the addresses checked, so a second DNS answer cannot swap in another (DNS rebinding). */
function pinnedLookup(addresses: readonly Address[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, addresses: Address[]) => void)(null, [...addresses]);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}

/** Leaving the loop early ends the stream, which closes the connection. */
async function readCapped(body: AsyncIterable<Buffer>, maxBytes: number, origin: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) throw new OutboundError(`${origin} answered more than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export type OutboundResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/**
 * One request under the outbound policy: https only, public addresses only (both relaxed by
 * `allowPrivate`), no redirects followed, a deadline for the whole exchange and a cap on the
 * answer's size.
 */
export async function outboundRequest(
  url: string,
  policy: OutboundPolicy,
  init: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string } = {},
): Promise<OutboundResponse> {
  const target = targetOf(url, policy.allowPrivate);
  const addresses = await checkedAddresses(target.hostname, policy);
  const timeoutMs = policy.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
  const agent = new Agent({ connect: { lookup: pinnedLookup(addresses), timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  try {
    const response = await request(target, {
      dispatcher: agent,
      method: init.method ?? "GET",
      headers: init.headers,
      body: init.body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const maxBytes = policy.maxBytes ?? OUTBOUND_MAX_BYTES;
    return { status: response.statusCode, headers: response.headers, body: await readCapped(response.body, maxBytes, target.origin) };
  } catch (error) {
    if (error instanceof OutboundError) throw error;
    throw new OutboundError(`${target.origin} could not be fetched: ${(error as Error).message}`);
  } finally {
    agent.close().catch(() => undefined);
  }
}

/** A JSON object from a 200 answer, else an `OutboundError`. */
export async function outboundJson(url: string, policy: OutboundPolicy): Promise<Record<string, unknown>> {
  const response = await outboundRequest(url, policy, { headers: { accept: "application/json" } });
  if (response.status !== 200) throw new OutboundError(`${new URL(url).origin} answered ${response.status}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body.toString("utf8"));
  } catch {
    throw new OutboundError(`${new URL(url).origin} did not answer JSON`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new OutboundError(`${new URL(url).origin} did not answer a JSON object`);
  return parsed as Record<string, unknown>;
}

/** Checks a URL under the policy without fetching it, for forms that store a URL the server fetches later. */
export async function checkOutboundUrl(url: string, policy: OutboundPolicy): Promise<void> {
  await checkedAddresses(targetOf(url, policy.allowPrivate).hostname, policy);
}
