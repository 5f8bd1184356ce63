/** Times in the text form Prisma's SQLite adapter stores and compares. */
export function sqliteTime(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

/**
 * The stored text form as ISO 8601 in UTC. Prisma's adapter and the data plane's
 * writers store `2026-11-24T09:30:00.000+00:00`, which needs only its zone
 * replaced; anything else a tool may have written goes through Date. In SQL,
 * strftime cost a third of a notification page's read.
 */
export function sqliteIsoTime(stored: string): string {
  return stored.length === 29 && stored.endsWith("+00:00") ? `${stored.slice(0, 23)}Z` : new Date(stored).toISOString();
}

/** A time as a `timestamp(3)` parameter, in UTC as Prisma stores it. */
export function postgresTime(date: Date): string {
  return date.toISOString().replace("Z", "");
}

/**
 * Prisma stores DateTime as `timestamp(3)` in UTC, which PostgreSQL prints as
 * `2026-11-24 09:30:00.12` (trailing zeros of the fraction dropped): read back as
 * ISO 8601 text by a string edit rather than by `Date`, or by `to_char`, which
 * moved the work onto the database server, often on the gateway's machine.
 */
export function postgresIsoTime(printed: string): string {
  if (printed.length === 19) return `${printed.slice(0, 10)}T${printed.slice(11)}.000Z`;
  if (printed.length > 20 && printed.length <= 23 && printed[19] === ".")
    return `${printed.slice(0, 10)}T${printed.slice(11, 20)}${printed.slice(20).padEnd(3, "0")}Z`;
  return new Date(`${printed.replace(" ", "T")}Z`).toISOString();
}
