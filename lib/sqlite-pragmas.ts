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

/**
 * The gateway's notification connection reads the file through a memory map of up
 * to this size rather than a read call per page: a page of notifications touches
 * rows spread over as many pages as it has rows
 * (docs/decisions/007-gateway-notification-queries.md).
 */
export const SQLITE_MMAP_BYTES = 256 * 1024 * 1024;
