/**
 * How every SQLite connection of Gatehouse's own (outside Prisma's adapter) is
 * configured: the rollback journal with SQLite's default `synchronous=FULL`
 * (docs/decisions/006 says why not WAL). The benchmark's hand-written service
 * opens the file the same way.
 */
export const SQLITE_SYNCHRONOUS = "FULL";
