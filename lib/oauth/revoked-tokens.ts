import "server-only";
import { createRefreshedCopy } from "../caching/refreshed-copy";
import type { DataPlaneStore } from "../data-plane/store";

export type RevocationList = {
  isRevoked(jti: string): Promise<boolean>;
  revoke(input: { jti: string; environmentId: string; expiresAt: Date }): Promise<void>;
};

/**
 * Revoked `jti`s, read from the database again in the background past `refreshAfterMs`
 * and waited for past `maxAgeMs`, so a revocation made by another instance takes effect
 * within seconds without a query per request. Rows are deleted once the token they name
 * would have expired anyway.
 */
export function createRevocationList(input: {
  store: Pick<DataPlaneStore, "revokedTokens" | "deleteExpiredRevocations" | "revokeToken">;
  refreshAfterMs?: number;
  maxAgeMs?: number;
}): RevocationList {
  const { store } = input;
  const maxAgeMs = input.maxAgeMs ?? 4_000;
  let lastPurgeAt = 0;

  async function load(): Promise<Set<string>> {
    const now = new Date();
    if (now.getTime() - lastPurgeAt > 60_000) {
      lastPurgeAt = now.getTime();
      await store.deleteExpiredRevocations(now);
    }
    return new Set(await store.revokedTokens(now));
  }

  const revoked = createRefreshedCopy(load, { maxAgeMs, refreshAfterMs: input.refreshAfterMs ?? maxAgeMs / 4 });

  return {
    async isRevoked(jti) {
      return (await revoked.get()).has(jti);
    },
    async revoke({ jti, environmentId, expiresAt }) {
      await store.revokeToken({ jti, environmentId, expiresAt }, new Date());
      revoked.kept()?.add(jti);
    },
  };
}
