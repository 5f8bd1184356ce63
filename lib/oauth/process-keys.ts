import "server-only";
import { processChanges } from "../caching/change-signal";
import { config } from "../config";
import { dataPlane } from "../data-plane/process";
import { log } from "../log";
import { createKeyStore, type KeyStore } from "./signing-keys";

const globalForKeys = globalThis as unknown as { gatehouseKeys?: KeyStore };

/**
 * The process's signing keys, on its data-plane store: one per process, shared by the
 * gateway's token service and the portal's test tokens, also across Next's module reloads.
 */
export function processKeys(): KeyStore {
  const { authSecret, gatewayCacheMaxAgeMs } = config();
  globalForKeys.gatehouseKeys ??= createKeyStore({ store: dataPlane().store, authSecret, maxAgeMs: gatewayCacheMaxAgeMs, changes: processChanges(), log });
  return globalForKeys.gatehouseKeys;
}
