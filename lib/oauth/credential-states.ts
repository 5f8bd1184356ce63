import "server-only";
import type { JSONWebKeySet } from "jose";
import type { Logger } from "pino";
import type { ChangeSignal } from "../caching/change-signal";
import { refusedWhileDatabaseAway } from "../caching/database-away";
import type { CredentialRow, DataPlaneStore, SubscriptionRow } from "../data-plane/store";
import { credentialOverride, type RateLimitPolicy } from "../limiters/rate-limit-policy";

/** How the credential's client proves who it is at the token endpoint. */
export type ClientAuthentication =
  | { method: "CLIENT_SECRET" }
  | { method: "PRIVATE_KEY_JWT"; jwks: JSONWebKeySet | null; jwksUri: string | null }
  | { method: "FEDERATED"; issuer: string; audience: string; subject: string };

function authenticationOf(row: CredentialRow): ClientAuthentication {
  if (row.authMethod === "PRIVATE_KEY_JWT") {
    const jwks = typeof row.jwks === "string" ? (JSON.parse(row.jwks) as JSONWebKeySet) : ((row.jwks ?? null) as JSONWebKeySet | null);
    return { method: "PRIVATE_KEY_JWT", jwks, jwksUri: row.jwksUri };
  }
  if (row.authMethod === "FEDERATED") {
    return { method: "FEDERATED", issuer: row.trustIssuer ?? "", audience: row.trustAudience ?? "", subject: row.trustSubject ?? "" };
  }
  return { method: "CLIENT_SECRET" };
}

export type CredentialState = {
  id: string;
  clientId: string;
  environmentId: string;
  active: boolean;
  /** API id → scopes granted for it */
  grants: ReadonlyMap<string, ReadonlySet<string>>;
  /** API id → the subscription of the credential's application to it in its environment, with its plan's limits */
  subscriptions: ReadonlyMap<string, SubscriptionRow>;
  /** the credential's own rate limit; null when its environment's applies */
  rateLimit: RateLimitPolicy | null;
  authentication: ClientAuthentication;
  /** DPoP (RFC 9449): the credential gets tokens only with a proof */
  requireDpop: boolean;
  /** secrets that are neither revoked nor expired when loaded */
  secrets: readonly { id: string; hash: string; expiresAt: Date | null }[];
};

export type CredentialStates = {
  /** the state of `clientId`, at most `maxAgeMs` old; undefined for an unknown client */
  get(clientId: string): Promise<CredentialState | undefined>;
  /**
   * the state of `clientId` read at `notBefore` (a `performance.now()`) or later: what is kept
   * when it was read since then, else read now, replacing what was kept
   */
  refresh(clientId: string, notBefore?: number): Promise<CredentialState | undefined>;
};

function stateOf(row: CredentialRow): CredentialState {
  return {
    id: row.id,
    clientId: row.clientId,
    environmentId: row.environmentId,
    active: row.status === "ACTIVE",
    rateLimit: credentialOverride(row),
    authentication: authenticationOf(row),
    requireDpop: row.requireDpop,
    grants: new Map(row.grants.map((grant) => [grant.apiId, new Set(grant.scopes.split(" ").filter(Boolean))])),
    subscriptions: new Map(row.grants.flatMap((grant) => (grant.subscription ? [[grant.apiId, grant.subscription] as const] : []))),
    secrets: row.secrets,
  };
}

/** What a read of the credential found, to tell whether a reload changed anything. */
function fingerprintOf(row: CredentialRow | undefined): string {
  return row ? JSON.stringify(row) : "";
}

/** How many kept states one query reads again after a change. */
const RELOAD_CHUNK = 500;

/** A kept state, when it was read, and what that read found (undefined until it answers). */
type Entry = { state: Promise<CredentialState | undefined>; loadedAt: number; read: string | undefined };

/**
 * Credential state is read on every token request and gateway call; it is
 * read again on a signal of `changes`, and kept for at most `maxAgeMs` when no signal
 * comes, which bounds how long a revoked credential keeps working. Past `refreshAfterMs` a call is answered from what
 * is kept while one reload runs beside it, so a busy client never waits for
 * the database; only state older than `maxAgeMs` is waited for. Reloads that
 * fall due within `batchMs` of each other are one query: with every client
 * busy, one query per client per `refreshAfterMs` took a tenth of the
 * gateway's CPU (decision 007). A reload that finds what the last read found keeps
 * the state it built, so that a busy gateway's old generation does not fill with
 * identical states every `refreshAfterMs` (decision 040). Unknown ids are kept
 * as known ones are, in one bounded map. A call that waits for a read the database does not
 * answer is refused 503 `not-ready` (decision 042). On a signal of `changes` every kept state
 * is read again at once, and answers only once read.
 */
export function createCredentialStates(input: {
  store: Pick<DataPlaneStore, "credentials">;
  maxAgeMs?: number;
  refreshAfterMs?: number;
  batchMs?: number;
  maxEntries?: number;
  changes?: ChangeSignal;
  log?: Pick<Logger, "warn">;
}): CredentialStates {
  const { store } = input;
  const answered = refusedWhileDatabaseAway("credential states", input.log);
  const maxAgeMs = input.maxAgeMs ?? 4_000;
  const refreshAfterMs = input.refreshAfterMs ?? maxAgeMs / 2;
  const batchMs = input.batchMs ?? 100;
  const maxEntries = input.maxEntries ?? 10_000;
  const cache = new Map<string, Entry>();
  let changedAt = -Infinity;

  /** The rows of `clientIds` that exist, by client id. */
  async function loadRows(clientIds: readonly string[]): Promise<Map<string, CredentialRow>> {
    const rows = await store.credentials(clientIds, new Date());
    return new Map(rows.map((row) => [row.clientId, row]));
  }

  async function load(entry: Entry, clientId: string): Promise<CredentialState | undefined> {
    const row = (await loadRows([clientId])).get(clientId);
    // A reload that answered first has replaced the state, and set what it found.
    entry.read ??= fingerprintOf(row);
    return row && stateOf(row);
  }

  /**
   * On a change every kept state is read again at once, `RELOAD_CHUNK` clients a query, rather
   * than one query per client at its next call; calls wait for that read, and a state whose row
   * reads the same is kept (decision 040).
   */
  function reloadKept(): void {
    const clientIds = [...cache.keys()];
    for (let start = 0; start < clientIds.length; start += RELOAD_CHUNK) {
      const chunk = clientIds.slice(start, start + RELOAD_CHUNK);
      const loadedAt = performance.now();
      const rows = answered(loadRows(chunk));
      for (const clientId of chunk) {
        const previous = cache.get(clientId)!;
        const entry: Entry = { state: Promise.resolve(undefined), loadedAt, read: undefined };
        entry.state = rows.then((found) => {
          const row = found.get(clientId);
          entry.read = fingerprintOf(row);
          return previous.read === entry.read ? previous.state : row && stateOf(row);
        });
        cache.set(clientId, entry);
        entry.state.catch(() => cache.get(clientId) === entry && cache.delete(clientId));
      }
    }
  }
  input.changes?.subscribe(() => {
    changedAt = performance.now();
    reloadKept();
  });

  function refresh(clientId: string, notBefore = performance.now()): Promise<CredentialState | undefined> {
    const kept = cache.get(clientId);
    if (kept && kept.loadedAt >= notBefore) return kept.state;
    const entry: Entry = { state: Promise.resolve(undefined), loadedAt: performance.now(), read: undefined };
    entry.state = answered(load(entry, clientId));
    cache.delete(clientId);
    if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
    cache.set(clientId, entry);
    entry.state.catch(() => cache.delete(clientId));
    return entry.state;
  }

  /**
   * One background reload per entry at a time, gathered with the others due within
   * `batchMs`; its answer replaces the entry unless a newer load or an eviction came first.
   */
  const reloading = new Set<string>();
  let due: string[] = [];
  function reloadDue(): void {
    const clientIds = due;
    due = [];
    const loadedAt = performance.now();
    loadRows(clientIds).then(
      (rows) => {
        for (const clientId of clientIds) {
          reloading.delete(clientId);
          const current = cache.get(clientId);
          if (!current || current.loadedAt > loadedAt) continue;
          const row = rows.get(clientId);
          const read = fingerprintOf(row);
          current.loadedAt = loadedAt;
          if (read !== current.read) {
            current.state = Promise.resolve(row && stateOf(row));
            current.read = read;
          }
          cache.delete(clientId);
          cache.set(clientId, current);
        }
      },
      () => clientIds.forEach((clientId) => reloading.delete(clientId)),
    );
  }
  function reloadBeside(clientId: string): void {
    if (reloading.has(clientId)) return;
    reloading.add(clientId);
    due.push(clientId);
    if (due.length === 1) setTimeout(reloadDue, batchMs).unref();
  }

  return {
    get(clientId) {
      const cached = cache.get(clientId);
      const age = cached && cached.loadedAt >= changedAt ? performance.now() - cached.loadedAt : Infinity;
      if (age >= maxAgeMs) return refresh(clientId);
      if (age >= refreshAfterMs) reloadBeside(clientId);
      return cached!.state;
    },
    refresh,
  };
}
