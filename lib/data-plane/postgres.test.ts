import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, type TestDatabase } from "../database/test-databases";
import { openPostgres, type PostgresConnection } from "./postgres";

const SERVER_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://root@127.0.0.1:5432/postgres";
let database: TestDatabase;
let connection: PostgresConnection;

beforeAll(async () => {
  database = await createPostgresDatabase(SERVER_URL);
  connection = openPostgres(database.url, 3);
});

afterAll(async () => {
  await connection?.close();
  await database?.drop();
});

describe("the PostgreSQL connection", () => {
  it("goes on after the server ends one of its idle connections", async () => {
    const [{ pid }] = (await connection.query<{ pid: number }>("SELECT pg_backend_pid() AS pid", [])).rows as [{ pid: number }];
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    await admin.end();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await connection.query<{ answer: number }>("SELECT 42 AS answer", [])).rows).toEqual([{ answer: 42 }]);
  });

  it("opens at most its pool size of connections, and uses them all when queries wait", async () => {
    const pids = await Promise.all(
      Array.from({ length: 9 }, async () => (await connection.query<{ pid: number }>("SELECT pg_backend_pid() AS pid, pg_sleep(0.05)", [])).rows[0]!.pid),
    );
    expect(new Set(pids).size).toBe(3);
  });

  it("commits a batch writer's sessions without waiting for the disk, and every other session's with", async () => {
    const setting = async (of: PostgresConnection) =>
      (await of.query<{ synchronous_commit: string }>("SHOW synchronous_commit", [])).rows[0]!.synchronous_commit;
    const writer = openPostgres(database.url, 1, { batchWriter: true });
    try {
      expect(await setting(writer)).toBe("off");
      expect(await setting(connection)).toBe("on");
    } finally {
      await writer.close();
    }
  });
});
