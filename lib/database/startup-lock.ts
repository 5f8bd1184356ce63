import "server-only";
import pg from "pg";

/** One key for every Gatehouse instance on a PostgreSQL database: "gatehouse" read as a number. */
const STARTUP_LOCK_KEY = 0x6761_7465;

/**
 * Instances started together on one PostgreSQL database take turns: the first
 * migrates and seeds, the others wait on an advisory lock and then find
 * nothing left to do. The lock belongs to a session of its own and ends with
 * it, so an instance that dies while holding it cannot block the rest. On SQLite
 * `work` runs at once: its migrations take the file's write lock.
 */
export async function withStartupLock<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) return work();
  const session = new pg.Client({ connectionString: databaseUrl });
  await session.connect();
  try {
    await session.query("SELECT pg_advisory_lock($1)", [STARTUP_LOCK_KEY]);
    return await work();
  } finally {
    await session.end();
  }
}
