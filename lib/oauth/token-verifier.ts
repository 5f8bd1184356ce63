import "server-only";
import { CLOCK_LEEWAY_SECONDS, type TokenEnvironment, TokenRejection, tokenHash, type VerifiedAccessToken, verifyAccessToken } from "./access-tokens";
import type { KeyStore } from "./signing-keys";

export type TokenVerifier = (env: TokenEnvironment, token: string) => Promise<VerifiedAccessToken>;

/**
 * Verifying an RS256 signature costs more than the rest of the gateway
 * pipeline, so verified tokens are remembered by hash (bounded, oldest out
 * first) and never used past their expiry.
 */
export function createTokenVerifier(input: {
  keys: KeyStore;
  publicUrl: string;
  environmentSlugOf: (environmentId: string) => Promise<string | undefined>;
  maxEntries?: number;
  /** told of every lookup in the cache, for the metrics */
  onLookup?: (hit: boolean) => void;
}): TokenVerifier {
  const onLookup = input.onLookup ?? (() => undefined);
  const maxEntries = input.maxEntries ?? 10_000;
  const verified = new Map<string, VerifiedAccessToken>();

  return async function verify(env, token) {
    const key = `${env.id}:${tokenHash(token)}`;
    const cached = verified.get(key);
    onLookup(cached !== undefined);
    if (cached) {
      if (Date.now() / 1000 < cached.expiresAt + CLOCK_LEEWAY_SECONDS) return cached;
      verified.delete(key);
      throw new TokenRejection("token-expired", "The token has expired.", undefined, cached.clientId);
    }
    const result = await verifyAccessToken({ keys: input.keys, publicUrl: input.publicUrl, env, token, environmentSlugOf: input.environmentSlugOf });
    if (verified.size >= maxEntries) verified.delete(verified.keys().next().value!);
    verified.set(key, result);
    return result;
  };
}
