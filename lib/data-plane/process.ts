import "server-only";
import { config } from "../config";
import { type DriverConnection, openDriver } from "./connection";
import type { DataPlaneStore } from "./store";
import { createDataPlaneStore } from "./store-for-connection";

type ProcessDataPlane = { connection: DriverConnection; store: DataPlaneStore };

const globalForDataPlane = globalThis as unknown as { gatehouseDataPlane?: ProcessDataPlane };

/**
 * The process's driver connection and data-plane store, opened on
 * first use; like `db()`, one per process, also across Next's module reloads.
 */
export function dataPlane(): ProcessDataPlane {
  if (!globalForDataPlane.gatehouseDataPlane) {
    const connection = openDriver(config().databaseUrl, { poolSize: config().databasePoolSize });
    globalForDataPlane.gatehouseDataPlane = { connection, store: createDataPlaneStore(connection) };
  }
  return globalForDataPlane.gatehouseDataPlane;
}
