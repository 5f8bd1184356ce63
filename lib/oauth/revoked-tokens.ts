import "server-only";
import type { DataPlaneStore } from "../data-plane/store";

export type RevocationList = {
  isRevoked(jti: string): Promise<boolean>;
  revoke(input: { jti: string; environmentId: string; expiresAt: Date }): Promise<void>;
};

/**
 * Revoked `jti`s, read from the database every `refreshMs` (in the background)
 * and never trusted when older than `maxStaleMs`, so a revocation made by
 * another instance takes effect within seconds without a query per request.
 * Rows are deleted once the token they name would have expired anyway.
 */
export function createRevocationList(input: {
  store: Pick<DataPlaneStore, "revokedTokens" | "deleteExpiredRevocations" | "revokeToken">;
  refreshMs?: number;
  maxStaleMs?: number;
}): RevocationList {
  const { store } = input;
  const refreshMs = input.refreshMs ?? 1_000;
  const maxStaleMs = input.maxStaleMs ?? 4_000;
  let revoked = new Set<string>();
  let loadedAt = 0;
  let lastPurgeAt = 0;
  let inFlight: Promise<void> | undefined;

  async function load(): Promise<void> {
    const now = new Date();
    if (now.getTime() - lastPurgeAt > 60_000) {
      lastPurgeAt = now.getTime();
      await store.deleteExpiredRevocations(now);
    }
    revoked = new Set(await store.revokedTokens(now));
    loadedAt = now.getTime();
  }

  function refresh(): Promise<void> {
    inFlight ??= load().finally(() => (inFlight = undefined));
    return inFlight;
  }

  return {
    async isRevoked(jti) {
      const age = Date.now() - loadedAt;
      if (age > maxStaleMs) await refresh();
      else if (age > refreshMs) refresh().catch(() => undefined);
      return revoked.has(jti);
    },
    async revoke({ jti, environmentId, expiresAt }) {
      await store.revokeToken({ jti, environmentId, expiresAt }, new Date());
      revoked.add(jti);
    },
  };
}
