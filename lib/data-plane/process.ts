import "server-only";
import { config } from "../config";
import { type DriverConnection, openDriver } from "../driver/connection";
import { createKeyStore, type KeyStore } from "../oauth/signing-keys";
import type { DataPlaneStore } from "./store";
import { createDataPlaneStore } from "./store-for-connection";

type ProcessDataPlane = { connection: DriverConnection; store: DataPlaneStore; keys: KeyStore };

const globalForDataPlane = globalThis as unknown as { gatehouseDataPlane?: ProcessDataPlane };

/**
 * The process's driver connection, data-plane store and signing keys, opened on
 * first use; like `db()`, one per process, also across Next's module reloads.
 */
export function dataPlane(): ProcessDataPlane {
  if (!globalForDataPlane.gatehouseDataPlane) {
    const connection = openDriver(config().databaseUrl, { poolSize: config().databasePoolSize });
    const store = createDataPlaneStore(connection);
    globalForDataPlane.gatehouseDataPlane = { connection, store, keys: createKeyStore({ store, authSecret: config().authSecret }) };
  }
  return globalForDataPlane.gatehouseDataPlane;
}
