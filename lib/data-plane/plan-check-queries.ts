import "server-only";
import type { DriverConnection } from "./connection";

/** The notifications `scripts/explain-notifications.ts` checks plans against. */
export type NotificationSample = {
  environmentId: string;
  /** the client that holds every second row, so that a plan that scans its range would show */
  heavyClientId: string;
  /** how many clients share the other rows */
  clients: number;
  total: number;
  /** the newest row's time; each older row is 5 s older */
  newest: Date;
};

/** Adds an environment and `sample.total` notifications in it, with the statistics the planner reads. */
export async function insertSampleNotifications(connection: DriverConnection, sample: NotificationSample): Promise<void> {
  const { environmentId, heavyClientId, clients, total } = sample;
  const newestSeconds = sample.newest.getTime() / 1000;
  const columns = `INSERT INTO "Notification" (id, "environmentId", "clientId", title, body, category, severity, status, "createdAt", "updatedAt")`;
  const client = `CASE WHEN i % 2 = 0 THEN '${heavyClientId}' ELSE 'gci_' || (i % ${clients}) END`;
  if (connection.dialect === "sqlite") {
    await connection.run(
      `INSERT INTO "Environment" (id, slug, name, "credentialType", "updatedAt") VALUES ('${environmentId}', 'explain', 'Explain', 'PLATFORM', '2026-01-01T00:00:00.000+00:00')`,
      [],
    );
    const at = `strftime('%Y-%m-%dT%H:%M:%f+00:00', ${newestSeconds} - i * 5, 'unixepoch')`;
    await connection.run(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${total}) ${columns} ` +
        `SELECT printf('ntf_%010d', i), '${environmentId}', ${client}, 'Notification ' || i, '', 'system', 'info', ` +
        `CASE i % 3 WHEN 0 THEN 'unread' WHEN 1 THEN 'read' ELSE 'archived' END, ${at}, ${at} FROM n`,
      [],
    );
    await connection.run("ANALYZE", []);
    return;
  }
  await connection.query(
    `INSERT INTO "Environment" (id, slug, name, "credentialType", "updatedAt") VALUES ('${environmentId}', 'explain', 'Explain', 'PLATFORM', now())`,
    [],
  );
  const at = `to_timestamp(${newestSeconds} - i * 5)`;
  await connection.query(
    `${columns} SELECT 'ntf_' || lpad(i::text, 10, '0'), '${environmentId}', ${client}, 'Notification ' || i, '', 'system', 'info', ` +
      `(ARRAY['unread', 'read', 'archived'])[i % 3 + 1]::"NotificationStatus", ${at}, ${at} FROM generate_series(1, ${total}) AS i`,
    [],
  );
  await connection.query(`ANALYZE "Notification"`, []);
}

/** The plan the database runs `sql` with, a line a step; on PostgreSQL as run, with its buffers. */
export async function explainPlan(connection: DriverConnection, sql: string, params: readonly unknown[]): Promise<string[]> {
  if (connection.dialect === "sqlite") {
    return (await connection.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params)).map((row) => row.detail);
  }
  const { rows } = await connection.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
  return rows.map((row) => row["QUERY PLAN"]);
}
