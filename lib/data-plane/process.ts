import "server-only";
import { config } from "../config";
import { publishGatewayChange } from "../gateway-changes";
import { type DriverConnection, openDriver } from "./connection";
import type { DataPlaneStore } from "./store";
import { createDataPlaneStore } from "./store-for-connection";

type ProcessDataPlane = { connection: DriverConnection; store: DataPlaneStore };

const globalForDataPlane = globalThis as unknown as { gatehouseDataPlane?: ProcessDataPlane };

/** The store's writes to what the gateway keeps are published on Redis once committed, as `db()`'s are. */
function publishingWrites(store: DataPlaneStore): DataPlaneStore {
  const published =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const result = await write(...args);
      publishGatewayChange();
      return result;
    };
  return {
    ...store,
    revokeToken: published(store.revokeToken),
    addSigningKey: published(store.addSigningKey),
    replaceSigningKeys: published(store.replaceSigningKeys),
  };
}

/**
 * The process's driver connection and data-plane store, opened on
 * first use; like `db()`, one per process, also across Next's module reloads.
 */
export function dataPlane(): ProcessDataPlane {
  if (!globalForDataPlane.gatehouseDataPlane) {
    const connection = openDriver(config().databaseUrl, { poolSize: config().databasePoolSize });
    globalForDataPlane.gatehouseDataPlane = { connection, store: publishingWrites(createDataPlaneStore(connection)) };
  }
  return globalForDataPlane.gatehouseDataPlane;
}
