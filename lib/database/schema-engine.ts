import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory, type SqlDriverAdapter, type SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type * as SchemaEngineModule from "@prisma/schema-engine-wasm";
import { sqlitePath } from "../database-url";
import { dialectOf, schemaFor } from "./schema";

type SchemaEngineBindings = typeof SchemaEngineModule & { __wbg_set_wasm(exports: WebAssembly.Exports): void };
export type SchemaEngine = SchemaEngineModule.SchemaEngine;

let bindings: Promise<SchemaEngineBindings> | undefined;

/**
 * The package's own entry imports the .wasm file as an ES module, which Node
 * cannot do, so the wasm-bindgen glue is loaded and wired to the module by hand.
 */
function loadBindings(): Promise<SchemaEngineBindings> {
  bindings ??= (async () => {
    const require = createRequire(import.meta.url);
    const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const glue = (await import(pathToFileURL(gluePath).href)) as SchemaEngineBindings;
    const wasm = readFileSync(gluePath.replace(/\.js$/, ".wasm"));
    const { instance } = await WebAssembly.instantiate(wasm, { "./schema_engine_bg.js": glue as unknown as WebAssembly.ModuleImports });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
    return glue;
  })();
  return bindings;
}

function sqliteAdapter(databaseUrl: string | undefined) {
  if (!databaseUrl) return new PrismaBetterSqlite3({ url: ":memory:" });
  const path = sqlitePath(databaseUrl);
  mkdirSync(dirname(path), { recursive: true });
  return new PrismaBetterSqlite3({ url: path });
}

/**
 * Runs `use` with a schema engine connected to `databaseUrl` through the driver
 * adapter the app uses, and closes it afterwards. Without a URL the engine runs on
 * an in-memory SQLite database: enough for diffs between two datamodels, whose
 * dialect comes from the datamodels themselves.
 */
export async function withSchemaEngine<T>(databaseUrl: string | undefined, use: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const { SchemaEngine } = await loadBindings();
  const dialect = databaseUrl ? dialectOf(databaseUrl) : "sqlite";
  const factory = dialect === "sqlite" ? sqliteAdapter(databaseUrl) : new PrismaPg({ connectionString: databaseUrl });
  // The engine does not close its connections when freed; a SQLite file would stay locked.
  const connections: SqlDriverAdapter[] = [];
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => remember(await factory.connect()),
    connectToShadowDb: async () => remember(await factory.connectToShadowDb()),
  };
  const remember = (connection: SqlDriverAdapter) => (connections.push(connection), connection);
  const logs = (message: string) => {
    if (process.env.DEBUG_SCHEMA_ENGINE) console.error(message);
  };
  const engine = await SchemaEngine.new({ datamodels: [["schema.prisma", schemaFor(dialect)]] }, logs, bindMigrationAwareSqlAdapterFactory(tracked));
  try {
    return await use(engine);
  } finally {
    engine.free();
    await Promise.all(connections.map((connection) => connection.dispose()));
  }
}
