import "server-only";
import type { Db } from "../db";
import { credentialOverride } from "../rate-limits/rate-limit-policy";

export type CredentialState = {
  id: string;
  clientId: string;
  environmentId: string;
  active: boolean;
  /** API id → scopes granted for it */
  grants: ReadonlyMap<string, ReadonlySet<string>>;
  /** the credential's own rate limit; null when its environment's applies */
  rateLimit: { burst: number; perSecond: number } | null;
  /** secrets that are neither revoked nor expired when loaded */
  secrets: readonly { id: string; hash: string; expiresAt: Date | null }[];
};

export type CredentialStates = {
  /** the state of `clientId`, at most `maxAgeMs` old; undefined for an unknown client */
  get(clientId: string): Promise<CredentialState | undefined>;
  /** the state of `clientId` read now, replacing what was kept */
  refresh(clientId: string): Promise<CredentialState | undefined>;
};

/**
 * Credential state is read on every token request and gateway call; it is
 * kept for at most `maxAgeMs` (≤ 5 s), which bounds how long a revoked
 * credential keeps working. Unknown ids are remembered too, in a bounded map.
 */
export function createCredentialStates(input: { db: Db; maxAgeMs?: number; maxEntries?: number }): CredentialStates {
  const { db } = input;
  const maxAgeMs = input.maxAgeMs ?? 4_000;
  const maxEntries = input.maxEntries ?? 10_000;
  const cache = new Map<string, { state: Promise<CredentialState | undefined>; loadedAt: number }>();

  async function load(clientId: string): Promise<CredentialState | undefined> {
    const now = new Date();
    const row = await db.credential.findUnique({
      where: { clientId },
      include: {
        grants: { select: { apiId: true, scopes: true } },
        secrets: { where: { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }, select: { id: true, hash: true, expiresAt: true } },
      },
    });
    if (!row) return undefined;
    return {
      id: row.id,
      clientId: row.clientId,
      environmentId: row.environmentId,
      active: row.status === "ACTIVE",
      rateLimit: credentialOverride(row),
      grants: new Map(row.grants.map((grant) => [grant.apiId, new Set(grant.scopes.split(" ").filter(Boolean))])),
      secrets: row.secrets,
    };
  }

  function refresh(clientId: string): Promise<CredentialState | undefined> {
    const entry = { state: load(clientId), loadedAt: Date.now() };
    cache.delete(clientId);
    if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
    cache.set(clientId, entry);
    entry.state.catch(() => cache.delete(clientId));
    return entry.state;
  }

  return {
    get(clientId) {
      const cached = cache.get(clientId);
      if (cached && Date.now() - cached.loadedAt < maxAgeMs) return cached.state;
      return refresh(clientId);
    },
    refresh,
  };
}
