import "server-only";
import type { Logger } from "pino";
import type { ChangeSignal } from "../caching/change-signal";
import { refusedWhileDatabaseAway } from "../caching/database-away";
import type { ApiKeyRow, DataPlaneStore } from "../data-plane/store";
import { tokenHash } from "./access-tokens";

export type ApiKeyStates = {
  /** the stored key `key` is, at most `maxAgeMs` old; undefined for a key no unrevoked key matches */
  get(key: string): Promise<ApiKeyRow | undefined>;
};

type Entry = { row: Promise<ApiKeyRow | undefined>; loadedAt: number };

/**
 * Which credential a key names, kept as credential states are and with the same bound
 * (`GATEWAY_CACHE_MAX_AGE_MS`): a key call then costs a hash and two map reads, as a token call
 * costs a verified-token hit and the credential's state, which the key's call reads from the
 * same credential states. What is kept is found by the key's SHA-256, as verified tokens are:
 * `hashKey`, the HMAC keys are stored under and several times that cost, runs only when the key
 * is read from the database. A change of the gateway's tables drops what is kept, so a revoked
 * key stops within the second changes take (decision 060); unknown keys are kept too, in the
 * same bounded map, so a stream of made-up keys with valid checksums costs one query per key and bound.
 */
export function createApiKeyStates(input: {
  store: Pick<DataPlaneStore, "apiKeys">;
  /** the hash a key is stored under */
  hashKey: (key: string) => string;
  maxAgeMs?: number;
  maxEntries?: number;
  changes?: ChangeSignal;
  log?: Pick<Logger, "warn">;
}): ApiKeyStates {
  const answered = refusedWhileDatabaseAway("API keys", input.log);
  const maxAgeMs = input.maxAgeMs ?? 4_000;
  const maxEntries = input.maxEntries ?? 10_000;
  const cache = new Map<string, Entry>();
  input.changes?.subscribe(() => cache.clear());

  function load(key: string, digest: string): Promise<ApiKeyRow | undefined> {
    const entry: Entry = { row: answered(input.store.apiKeys([input.hashKey(key)]).then((rows) => rows[0])), loadedAt: performance.now() };
    cache.delete(digest);
    if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
    cache.set(digest, entry);
    entry.row.catch(() => cache.get(digest) === entry && cache.delete(digest));
    return entry.row;
  }

  return {
    get(key) {
      const digest = tokenHash(key);
      const kept = cache.get(digest);
      if (kept && performance.now() - kept.loadedAt < maxAgeMs) return kept.row;
      return load(key, digest);
    },
  };
}
