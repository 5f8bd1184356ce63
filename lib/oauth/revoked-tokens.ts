import "server-only";
import type { Logger } from "pino";
import { refusedWhileDatabaseAway } from "../caching/database-away";
import type { ChangeSignal } from "../caching/change-signal";
import { createRefreshedCopy } from "../caching/refreshed-copy";
import type { DataPlaneStore } from "../data-plane/store";

export type RevocationList = {
  isRevoked(jti: string): Promise<boolean>;
  revoke(input: { jti: string; environmentId: string; expiresAt: Date }): Promise<void>;
};

/**
 * Revoked `jti`s, read from the database again in the background past `refreshAfterMs`
 * and waited for past `maxAgeMs`, so a revocation made by another instance takes effect
 * within seconds without a query per request, and at once on a signal of `changes`. Rows are deleted once the token they name
 * would have expired anyway. A call that needs the list past `maxAgeMs`, or a revocation,
 * while the database does not answer is refused 503 `not-ready` (decision 042).
 */
export function createRevocationList(input: {
  store: Pick<DataPlaneStore, "revokedTokens" | "deleteExpiredRevocations" | "revokeToken">;
  refreshAfterMs?: number;
  maxAgeMs?: number;
  changes?: ChangeSignal;
  log?: Pick<Logger, "warn">;
}): RevocationList {
  const { store } = input;
  const answered = refusedWhileDatabaseAway("revoked tokens", input.log);
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
  input.changes?.subscribe(revoked.expire);

  return {
    async isRevoked(jti) {
      return (revoked.fresh() ?? (await answered(revoked.get()))).has(jti);
    },
    async revoke({ jti, environmentId, expiresAt }) {
      await answered(store.revokeToken({ jti, environmentId, expiresAt }, new Date()));
      revoked.kept()?.add(jti);
    },
  };
}
