// The hand-written service's storage: the database driver Gatehouse uses, with
// statements prepared once, and the same SQL as Gatehouse's notification queries.
import Database from "better-sqlite3";
import pg from "pg";

export type Row = {
  id: string;
  title: string;
  body: string;
  category: string;
  severity: string;
  status: string;
  link: string | null;
  createdAt: string;
  updatedAt: string;
  readAt: string | null;
  version: number;
};
export type Owner = { environmentId: string; clientId: string };
export type Page = { owner: Owner; limit: number; cursor?: { createdAt: Date; id: string } };

export type BaselineStore = {
  get(owner: Owner, id: string): Promise<Row | undefined>;
  list(page: Page): Promise<Row[]>;
  setStatus(owner: Owner, id: string, version: number, status: string, readAt: Date | null, now: Date): Promise<boolean>;
  environmentId(slug: string): Promise<string | undefined>;
};

const COLUMNS = `"id", "title", "body", "category", "severity", "status", "link", "createdAt", "updatedAt", "readAt", "version"`;

function sqliteStore(path: string, synchronous: string): BaselineStore {
  const db = new Database(path, { timeout: 10_000 });
  db.pragma(`synchronous = ${synchronous}`);
  const iso = (date: Date) => date.toISOString().replace("Z", "+00:00");
  const get = db.prepare(`SELECT ${COLUMNS} FROM "Notification" WHERE "id" = ? AND "environmentId" = ? AND "clientId" = ?`);
  const first = db.prepare(`SELECT ${COLUMNS} FROM "Notification" WHERE "environmentId" = ? AND "clientId" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT ?`);
  const after = db.prepare(
    `SELECT ${COLUMNS} FROM "Notification" WHERE "environmentId" = ? AND "clientId" = ? AND "createdAt" <= ? AND NOT ("createdAt" = ? AND "id" >= ?) ORDER BY "createdAt" DESC, "id" DESC LIMIT ?`,
  );
  const update = db.prepare(
    `UPDATE "Notification" SET "status" = ?, "readAt" = ?, "updatedAt" = ?, "version" = "version" + 1 WHERE "id" = ? AND "environmentId" = ? AND "clientId" = ? AND "version" = ?`,
  );
  const environment = db.prepare(`SELECT "id" FROM "Environment" WHERE "slug" = ?`).pluck();
  const toIso = (value: string | null) => (value === null ? null : new Date(value).toISOString());
  const row = (raw: Row | undefined): Row | undefined =>
    raw && { ...raw, createdAt: toIso(raw.createdAt)!, updatedAt: toIso(raw.updatedAt)!, readAt: toIso(raw.readAt) };
  return {
    async get(owner, id) {
      return row(get.get(id, owner.environmentId, owner.clientId) as Row | undefined);
    },
    async list({ owner, limit, cursor }) {
      const rows = cursor
        ? after.all(owner.environmentId, owner.clientId, iso(cursor.createdAt), iso(cursor.createdAt), cursor.id, limit)
        : first.all(owner.environmentId, owner.clientId, limit);
      return (rows as Row[]).map((raw) => row(raw)!);
    },
    async setStatus(owner, id, version, status, readAt, now) {
      return update.run(status, readAt && iso(readAt), iso(now), id, owner.environmentId, owner.clientId, version).changes === 1;
    },
    async environmentId(slug) {
      return environment.get(slug) as string | undefined;
    },
  };
}

function postgresStore(connectionString: string, poolSize: number): BaselineStore {
  const TIMESTAMP = 1114;
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    types: {
      getTypeParser: (oid, format) =>
        oid === TIMESTAMP ? (value: string) => new Date(`${value.replace(" ", "T")}Z`).toISOString() : pg.types.getTypeParser(oid, format),
    },
  });
  const query = async (name: string, text: string, values: unknown[]) => (await pool.query({ name, text, values })).rows as Row[];
  return {
    async get(owner, id) {
      const [row] = await query("get", `SELECT ${COLUMNS} FROM "Notification" WHERE "id" = $1 AND "environmentId" = $2 AND "clientId" = $3`, [
        id,
        owner.environmentId,
        owner.clientId,
      ]);
      return row;
    },
    async list({ owner, limit, cursor }) {
      if (!cursor) {
        return query(
          "first",
          `SELECT ${COLUMNS} FROM "Notification" WHERE "environmentId" = $1 AND "clientId" = $2 ORDER BY "createdAt" DESC, "id" DESC LIMIT $3`,
          [owner.environmentId, owner.clientId, limit],
        );
      }
      return query(
        "after",
        `SELECT ${COLUMNS} FROM "Notification" WHERE "environmentId" = $1 AND "clientId" = $2 AND "createdAt" <= $3 AND NOT ("createdAt" = $3 AND "id" >= $4) ORDER BY "createdAt" DESC, "id" DESC LIMIT $5`,
        [owner.environmentId, owner.clientId, cursor.createdAt.toISOString().replace("Z", ""), cursor.id, limit],
      );
    },
    async setStatus(owner, id, version, status, readAt, now) {
      const result = await pool.query({
        name: "update",
        text: `UPDATE "Notification" SET "status" = $1, "readAt" = $2, "updatedAt" = $3, "version" = "version" + 1 WHERE "id" = $4 AND "environmentId" = $5 AND "clientId" = $6 AND "version" = $7`,
        values: [
          status,
          readAt ? readAt.toISOString().replace("Z", "") : null,
          now.toISOString().replace("Z", ""),
          id,
          owner.environmentId,
          owner.clientId,
          version,
        ],
      });
      return result.rowCount === 1;
    },
    async environmentId(slug) {
      const { rows } = await pool.query({ name: "environment", text: `SELECT "id" FROM "Environment" WHERE "slug" = $1`, values: [slug] });
      return rows[0]?.id as string | undefined;
    },
  };
}

/** Opened as Gatehouse opens its own: SQLite's `synchronous` setting, PostgreSQL's pool size. */
export function openBaselineStore(databaseUrl: string, settings: { sqliteSynchronous: string; postgresPoolSize: number }): BaselineStore {
  return databaseUrl.startsWith("file:")
    ? sqliteStore(databaseUrl.slice("file:".length), settings.sqliteSynchronous)
    : postgresStore(databaseUrl, settings.postgresPoolSize);
}
