import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratedDatabase } from "./database/migrated-database";
import { createRequestLogInsert } from "./data-plane/request-log-insert";
import type { RequestLogEntry } from "./data-plane/request-log-entry";
import type { Db } from "./db";

let handle: Awaited<ReturnType<typeof migratedDatabase>>;
let db: Db;

beforeAll(async () => {
  handle = await migratedDatabase();
  db = handle.db;
});

afterAll(async () => {
  await handle?.close();
});

describe("a Prisma transaction", () => {
  it("writes after reading while the request log's writer writes beside it, and both commit", async () => {
    const insertLogRows = createRequestLogInsert(handle.database.url);
    const entry: RequestLogEntry = {
      at: new Date(),
      requestId: "req_1",
      traceId: "0af7651916cd43dd8448eb211c80319c",
      method: "GET",
      path: "/gw/sso-qa/notifications/v1/notifications",
      route: "/v1/notifications",
      status: 200,
      latencyMs: 1,
      clientId: null,
      environment: "sso-qa",
      api: "notifications",
      problem: null,
    };
    let logged: Promise<void> | undefined;
    const name = await db.$transaction(async (tx) => {
      const before = await tx.application.count();
      // Another connection writes while this transaction holds what it read, as the
      // gateway's request log does beside every portal and CLI change.
      logged = insertLogRows([entry]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.application.create({
        data: { id: "app_after_a_commit", name: `App ${before}`, team: { create: { id: "team_after_a_commit", name: `Team ${before}` } } },
      });
      return `App ${before}`;
    });
    await logged;
    expect(await db.application.findUnique({ where: { id: "app_after_a_commit" } })).toMatchObject({ name });
    expect(await db.requestLog.count()).toBe(1);
  });
});
