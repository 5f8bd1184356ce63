import "server-only";
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { OutboundError, type OutboundPolicy, outboundJson } from "../outbound/outbound-request";

/**
 * Key sets Gatehouse fetches: a credential's `jwks_uri`, and the `jwks_uri` a trusted
 * issuer's `/.well-known/openid-configuration` names. Each answer is kept for `maxAgeMs`;
 * a token signed with a key the kept set lacks asks again, at most once per `minRefetchMs`,
 * so a client that rotates its keys is not refused for minutes, and unknown `kid`s cannot
 * make Gatehouse fetch on every request.
 */
export type RemoteKeySets = {
  /** the key set at `jwksUri`; `refetch` asks again unless the kept copy is younger than `minRefetchMs` */
  keys(jwksUri: string, refetch?: boolean): Promise<JWTVerifyGetKey>;
  /** the `jwks_uri` of `issuer`, from its discovery document, whose `issuer` must be `issuer` */
  issuerJwksUri(issuer: string): Promise<string>;
};

type Kept<T> = { value: Promise<T>; fetchedAt: number };

export function createRemoteKeySets(input: { policy: OutboundPolicy; maxAgeMs?: number; minRefetchMs?: number; maxEntries?: number }): RemoteKeySets {
  const { policy } = input;
  const maxAgeMs = input.maxAgeMs ?? 5 * 60_000;
  const minRefetchMs = input.minRefetchMs ?? 30_000;
  const maxEntries = input.maxEntries ?? 1_000;
  const keySets = new Map<string, Kept<JWTVerifyGetKey>>();
  const discovered = new Map<string, Kept<string>>();

  function kept<T>(cache: Map<string, Kept<T>>, key: string, fetch: () => Promise<T>, refetch = false): Promise<T> {
    const now = Date.now();
    const entry = cache.get(key);
    const age = entry ? now - entry.fetchedAt : Infinity;
    if (entry && age < maxAgeMs && !(refetch && age >= minRefetchMs)) return entry.value;
    const value = fetch();
    cache.delete(key);
    if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
    cache.set(key, { value, fetchedAt: now });
    // A failed fetch is not kept, unless a newer one has taken its place.
    value.catch(() => cache.get(key)?.value === value && cache.delete(key));
    return value;
  }

  async function fetchKeySet(jwksUri: string): Promise<JWTVerifyGetKey> {
    const document = await outboundJson(jwksUri, policy);
    if (!Array.isArray(document.keys)) throw new OutboundError(`${jwksUri} is not a JWKS: it has no "keys" array`);
    return createLocalJWKSet(document as unknown as JSONWebKeySet);
  }

  async function discover(issuer: string): Promise<string> {
    const document = await outboundJson(`${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`, policy);
    if (document.issuer !== issuer) throw new OutboundError(`the discovery document of ${issuer} names the issuer ${JSON.stringify(document.issuer)}`);
    if (typeof document.jwks_uri !== "string") throw new OutboundError(`the discovery document of ${issuer} has no jwks_uri`);
    return document.jwks_uri;
  }

  return {
    keys: (jwksUri, refetch) => kept(keySets, jwksUri, () => fetchKeySet(jwksUri), refetch),
    issuerJwksUri: (issuer) => kept(discovered, issuer, () => discover(issuer)),
  };
}
