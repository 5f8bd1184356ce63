import "server-only";
import type { RowShape } from "./sqlite";

/** One statement and its parameters, for `Dialect.transaction`. */
export type Statement = { sql: string; params: readonly unknown[] };

/**
 * What the stores need of a database: its SQL where the dialects write it differently,
 * its time codec, and its statements run, each prepared once per connection (better-sqlite3
 * statements; PostgreSQL named statements). The stores write their queries and decode their
 * rows once over it (`dialect-sqlite.ts`, `dialect-postgres.ts`).
 */
export type Dialect = {
  /**
   * Whether each statement is a round trip to a server: then a store reads together what
   * one statement can read (decision 037); on SQLite, in process, it reads it in turn.
   */
  roundTrips: boolean;
  /**
   * The statement's `index`th parameter, counted from 1, as `type` where the dialect casts
   * them. SQLite binds its parameters in the order they stand, so a statement numbers them
   * in that order and passes a value once for each place it is used.
   */
  param(index: number, type?: string): string;
  /** `column` is one of the list that the `index`th parameter holds (a list encoded by `list`). */
  inList(column: string, index: number): string;
  /** An enum column read as text. */
  text(column: string): string;
  /** A list of values as one parameter, so that a list of any length is one prepared statement. */
  list(values: readonly string[]): unknown;
  /** A time as a parameter, in the form Prisma stores it. */
  time(date: Date): string;
  /** A stored time, as read, as ISO 8601 in UTC. */
  isoTime(stored: string): string;
  /** A stored JSON column, as read, parsed. */
  json(stored: unknown): unknown;
  /** A stored boolean, as read. */
  flag(stored: unknown): boolean;
  /** The rows `sql` reads, as objects or (cheaper on hot paths) as arrays in the order of the columns selected. */
  all<Row>(sql: string, params: readonly unknown[], shape?: RowShape): Promise<Row[]>;
  get<Row>(sql: string, params: readonly unknown[], shape?: RowShape): Promise<Row | undefined>;
  /** Runs a writing statement; the number of rows it changed. */
  run(sql: string, params: readonly unknown[]): Promise<number>;
  /** Runs `statements` in order as one transaction; the rows each returned (none for a statement that returns none). */
  transaction(statements: readonly Statement[]): Promise<unknown[][]>;
};
