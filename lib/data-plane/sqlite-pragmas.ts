/**
 * How Gatehouse keeps its SQLite file: the write-ahead log, so readers never wait
 * for the writer, with `synchronous=NORMAL`, which in WAL mode syncs at checkpoints
 * rather than at every commit and loses no committed transaction on a process crash
 * (docs/decisions/007-gateway-notification-queries.md). The migrations switch
 * the file to WAL; every connection Gatehouse opens itself sets `synchronous`, and
 * the benchmark's hand-written service opens the file the same way.
 */
export const SQLITE_JOURNAL_MODE = "WAL";
export const SQLITE_SYNCHRONOUS = "NORMAL";
