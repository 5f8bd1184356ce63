import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sqlitePath } from "../database-url";
import { createSqliteDatabase, type TestDatabase } from "../database/test-databases";
import { BATCH_WRITER_CACHE_KIB, openSqlite, type SqliteConnection } from "./sqlite";

let database: TestDatabase;
const opened: SqliteConnection[] = [];

function open(batchWriter: boolean): SqliteConnection {
  const connection = openSqlite(sqlitePath(database.url), { batchWriter });
  opened.push(connection);
  return connection;
}

async function pragma(connection: SqliteConnection, name: string): Promise<unknown> {
  const row = await connection.get<Record<string, unknown>>(`PRAGMA ${name}`, []);
  return row?.[name];
}

beforeEach(() => {
  database = createSqliteDatabase();
});

afterEach(async () => {
  for (const connection of opened.splice(0)) await connection.close();
  await database.drop();
});

describe("the SQLite connections of the data plane", () => {
  it("leave checkpoints to the batch writer, whose page cache stays small", async () => {
    const serving = open(false);
    const batchWriter = open(true);
    expect(await pragma(serving, "wal_autocheckpoint")).toBe(0);
    expect(await pragma(batchWriter, "wal_autocheckpoint")).toBeGreaterThan(0);
    // A negative cache_size is a size in KiB.
    expect(await pragma(batchWriter, "cache_size")).toBe(-BATCH_WRITER_CACHE_KIB);
    expect(BATCH_WRITER_CACHE_KIB).toBeLessThan(-Number(await pragma(serving, "cache_size")));
  });
});
