import { sqlitePath } from "./database-url";

/** The database as people need to recognise it, without its password: `SQLite /path` or a PostgreSQL URL. */
export function databaseLabel(databaseUrl: string): string {
  if (databaseUrl.startsWith("file:")) return `SQLite ${sqlitePath(databaseUrl)}`;
  try {
    const url = new URL(databaseUrl);
    url.password = "";
    url.searchParams.delete("password");
    return `PostgreSQL ${url.toString()}`;
  } catch {
    return "PostgreSQL (unparsable URL)";
  }
}
