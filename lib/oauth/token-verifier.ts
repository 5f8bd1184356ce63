import "server-only";
import { CLOCK_LEEWAY_SECONDS, type TokenEnvironment, TokenRejection, type VerifiedAccessToken, verifyAccessToken } from "./access-tokens";
import type { KeyStore } from "./signing-keys";

export type TokenVerifier = (env: TokenEnvironment, token: string) => Promise<VerifiedAccessToken>;

/** A verified token, its text and the environment it was verified for: the same text sent to another environment is verified there. */
type Verified = { text: string; environmentId: string; token: VerifiedAccessToken };

/**
 * What a kept token is found by: the end of its signature, which differs between any two
 * tokens, so that a lookup hashes 43 characters rather than the whole token. The kept text is
 * then compared whole.
 */
const LOOKUP_CHARACTERS = 43;

/**
 * Verifying an RS256 signature costs more than the rest of the gateway
 * pipeline, so verified tokens are remembered (bounded, oldest out first) and
 * never used past their expiry. They are kept by their own text, which the
 * lookup compares whole: a SHA-256 per call cost more than the rest of a kept
 * token's check (decision 078).
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
  const verified = new Map<string, Verified>();

  return async function verify(env, token) {
    const lookup = token.slice(-LOOKUP_CHARACTERS);
    const kept = verified.get(lookup);
    const cached = kept?.text === token && kept.environmentId === env.id ? kept.token : undefined;
    onLookup(cached !== undefined);
    if (cached) {
      if (Date.now() / 1000 < cached.expiresAt + CLOCK_LEEWAY_SECONDS) return cached;
      verified.delete(lookup);
      throw new TokenRejection("token-expired", "The token has expired.", undefined, cached.clientId);
    }
    const result = await verifyAccessToken({ keys: input.keys, publicUrl: input.publicUrl, env, token, environmentSlugOf: input.environmentSlugOf });
    if (verified.size >= maxEntries) verified.delete(verified.keys().next().value!);
    verified.set(lookup, { text: token, environmentId: env.id, token: result });
    return result;
  };
}
