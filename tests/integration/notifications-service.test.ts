import BetterSqlite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { ProblemError } from "../../lib/http/problem";
import { newId } from "../../lib/ids";
import { createNotifications } from "../../lib/notifications/create-notifications";
import { getNotification } from "../../lib/notifications/get-notification";
import { listNotifications } from "../../lib/notifications/list-notifications";
import { createPageCache } from "../../lib/notifications/page-cache";
import { listNotificationsQuerySchema } from "../../lib/notifications/schemas";
import type { NotificationStore } from "../../lib/data-plane/notifications";
import { type DriverConnection, openDriver } from "../../lib/data-plane/connection";
import { createNotificationStore } from "../../lib/data-plane/notifications-for-connection";
import { updateNotification } from "../../lib/notifications/update-notification";
import { seedNotifications } from "../../prisma/seed-notifications";
import { POSTGRES_SERVER_URL } from "../../lib/database/test-databases";
import { migratedDatabase } from "../../lib/database/migrated-database";

type Owner = { environmentId: string; clientId: string };

let database: Awaited<ReturnType<typeof migratedDatabase>>;
let db: Db;
let store: NotificationStore;
let connection: DriverConnection | undefined;
let alice: Owner;
let bob: Owner;
let aliceElsewhere: Owner;

async function addEnvironment(slug: string): Promise<string> {
  const id = newId("env");
  await db.environment.create({ data: { id, slug, name: slug, credentialType: "PLATFORM" } });
  return id;
}

async function addClient(environmentId: string, applicationId: string): Promise<Owner> {
  const clientId = newId("gci");
  await db.credential.create({ data: { id: newId("cred"), clientId, applicationId, environmentId } });
  return { environmentId, clientId };
}

async function rejection(promise: Promise<unknown>): Promise<ProblemError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProblemError);
  return error as ProblemError;
}

/** A client with no notifications yet: the credential of a new application in Alice's environment. */
async function freshClient(): Promise<Owner> {
  const applicationId = newId("app");
  await db.application.create({
    data: { id: applicationId, name: `Fresh ${applicationId}`, team: { create: { id: newId("team"), name: `Team of ${applicationId}` } } },
  });
  return addClient(alice.environmentId, applicationId);
}

function query(values: Record<string, string> = {}) {
  return listNotificationsQuerySchema.parse(values);
}

async function notify(owner: Owner, title: string, createdAt?: Date): Promise<string> {
  const [id] = await createNotifications({ db, environmentId: owner.environmentId, recipients: { clientIds: [owner.clientId] }, title, createdAt });
  return id!;
}

beforeAll(async () => {
  database = await migratedDatabase();
  db = database.db;
  connection = openDriver(database.database.url);
  store = createNotificationStore(connection);
  const [qa, prod] = [await addEnvironment("qa"), await addEnvironment("prod")];
  // An application has one active credential per environment: Bob's client is another application's.
  const [application, bobsApplication] = await Promise.all(
    ["Test App", "Bob's App"].map((name) =>
      db.application.create({ data: { id: newId("app"), name, team: { create: { id: newId("team"), name: `Team of ${name}` } } } }),
    ),
  );
  alice = await addClient(qa, application!.id);
  bob = await addClient(qa, bobsApplication!.id);
  aliceElsewhere = await addClient(prod, application!.id);
});

afterAll(async () => {
  await connection?.close();
  await database?.close();
});

describe("createNotifications", () => {
  it("creates one notification per recipient with defaults", async () => {
    const ids = await createNotifications({
      db,
      environmentId: alice.environmentId,
      recipients: { clientIds: [alice.clientId, bob.clientId] },
      title: "Hello",
    });
    expect(ids).toHaveLength(2);
    const rows = await db.notification.findMany({ where: { id: { in: ids } }, orderBy: { clientId: "asc" } });
    expect(rows.map((row) => row.clientId).sort()).toEqual([alice.clientId, bob.clientId].sort());
    expect(rows[0]).toMatchObject({ title: "Hello", body: "", category: "system", severity: "info", status: "unread", link: null, readAt: null, version: 1 });
  });

  it("sends to every active client of the environment", async () => {
    const ids = await createNotifications({
      db,
      environmentId: aliceElsewhere.environmentId,
      recipients: "all-clients",
      title: "Maintenance",
      severity: "warning",
    });
    const rows = await db.notification.findMany({ where: { id: { in: ids } } });
    expect(rows.map((row) => row.clientId)).toEqual([aliceElsewhere.clientId]);
  });

  it("refuses clients of another environment and bad fields, naming them", async () => {
    const foreign = await rejection(
      createNotifications({ db, environmentId: alice.environmentId, recipients: { clientIds: [aliceElsewhere.clientId] }, title: "x" }),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.errors).toEqual([expect.objectContaining({ field: "clientIds" })]);
    const invalid = await rejection(
      createNotifications({
        db,
        environmentId: alice.environmentId,
        recipients: { clientIds: [alice.clientId] },
        title: "",
        category: "gossip" as "system",
        link: "javascript:alert(1)",
      }),
    );
    expect(invalid.errors?.map((error) => error.field).sort()).toEqual(["category", "link", "title"]);
  });
});

describe("listNotifications", () => {
  it("pages newest first, every item exactly once while new ones arrive", async () => {
    const owner = await freshClient();
    const sameInstant = new Date("2022-12-05T09:00:00.000Z");
    const existing: string[] = [];
    for (let i = 0; i < 7; i++) existing.push(await notify(owner, `tie ${i}`, sameInstant));
    for (let i = 0; i < 8; i++) existing.push(await notify(owner, `older ${i}`, new Date(sameInstant.getTime() - (i + 1) * 1000)));

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listNotifications({ store, ...owner, query: query({ limit: "4", ...(cursor ? { cursor } : {}) }) });
      seen.push(...page.items.map((item) => item.id));
      for (let i = 1; i < page.items.length; i++) {
        const [previous, current] = [page.items[i - 1]!, page.items[i]!];
        const ordered = previous.createdAt > current.createdAt || (previous.createdAt === current.createdAt && previous.id > current.id);
        expect(ordered).toBe(true);
      }
      await notify(owner, "arrived while paging");
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen.filter((id) => existing.includes(id)).sort()).toEqual([...existing].sort());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("filters by status, category, severity and since", async () => {
    const owner = await freshClient();
    const base = new Date("2023-01-01T00:00:00.000Z");
    const [critical] = await createNotifications({
      db,
      environmentId: owner.environmentId,
      recipients: { clientIds: [owner.clientId] },
      title: "c",
      severity: "critical",
      category: "security",
      createdAt: base,
    });
    const [billing] = await createNotifications({
      db,
      environmentId: owner.environmentId,
      recipients: { clientIds: [owner.clientId] },
      title: "b",
      category: "billing",
      createdAt: new Date(base.getTime() - 60_000),
    });
    await updateNotification({ store, ...owner, id: billing!, input: { status: "archived" } });
    const ids = async (values: Record<string, string>) => (await listNotifications({ store, ...owner, query: query(values) })).items.map((item) => item.id);
    expect(await ids({ severity: "critical" })).toEqual([critical]);
    expect(await ids({ category: "billing" })).toEqual([billing]);
    expect(await ids({ status: "archived" })).toEqual([billing]);
    expect(await ids({ status: "archived,unread", since: "2022-12-31T23:59:30Z" })).toEqual([critical]);
  });

  it("never shows another client's or another environment's notifications", async () => {
    const mine = await notify(alice, "isolation: alice");
    const bobs = await notify(bob, "isolation: bob");
    const elsewhere = await notify(aliceElsewhere, "isolation: alice in prod");
    const titled = async (owner: Owner) =>
      (await listNotifications({ store, ...owner, query: query({ limit: "100" }) })).items
        .filter((item) => item.title.startsWith("isolation:"))
        .map((item) => item.id);
    expect(await titled(alice)).toEqual([mine]);
    expect(await titled(bob)).toEqual([bobs]);
    expect(await titled(aliceElsewhere)).toEqual([elsewhere]);
  });

  it("answers a forged cursor with a 400 naming cursor", async () => {
    for (const cursor of ["not-a-cursor", Buffer.from('{"a":1}').toString("base64url"), Buffer.from('[1e20,"x"]').toString("base64url")]) {
      const problem = await rejection(listNotifications({ store, ...alice, query: query({ cursor }) }));
      expect(problem.status).toBe(400);
      expect(problem.errors).toEqual([{ in: "query", field: "cursor", message: expect.any(String) }]);
    }
  });
});

describe("the page cache", () => {
  it("serves a kept page only while the stored rows are the ones it was built from", async () => {
    const captured: string[] = [];
    const listeningConnection = openDriver(database.database.url, { onQuery: (sql) => captured.push(sql) });
    const listening = createNotificationStore(listeningConnection);
    const pages = createPageCache();
    const serve = async (values: Record<string, string> = {}) => {
      captured.length = 0;
      const page = await pages({ store: listening, ...owner, query: query(values) });
      return {
        ...page,
        items: (JSON.parse(new TextDecoder().decode(page.body)) as { items: { id: string; status: string }[] }).items,
        read: captured.some((sql) => sql.includes('"title"')),
        statements: captured.length,
      };
    };
    // A page read afresh comes with its count of changes: in one statement on PostgreSQL, after it on SQLite.
    const freshRead = listeningConnection.dialect === "postgresql" ? 1 : 2;
    const owner = await freshClient();
    const [older, newer] = [await notify(owner, "older", new Date(Date.now() - 60_000)), await notify(owner, "newer")];
    try {
      expect(await serve()).toMatchObject({ read: true, statements: freshRead, items: [{ id: newer }, { id: older }] });
      expect(await serve()).toMatchObject({ read: false, statements: 1, items: [{ id: newer }, { id: older }] });
      // Another instance's change, through Prisma: the next page shows it.
      await db.notification.update({ where: { id: older }, data: { status: "read", readAt: new Date(), version: { increment: 1 } } });
      expect(await serve()).toMatchObject({ read: true, items: [{ id: newer }, { id: older, status: "read" }] });
      const newest = await notify(owner, "newest");
      expect(await serve()).toMatchObject({ read: true, items: [{ id: newest }, { id: newer }, { id: older }] });
      const paged = await serve({ limit: "2" });
      expect(paged).toMatchObject({ read: true, items: [{ id: newest }, { id: newer }], nextCursor: expect.any(String) });
      // A page after a cursor is not kept: read alone, every time.
      for (let turn = 0; turn < 2; turn++) {
        expect(await serve({ limit: "2", cursor: paged.nextCursor! })).toMatchObject({ read: true, statements: 1, items: [{ id: older }], nextCursor: null });
      }
      await db.notification.delete({ where: { id: older } });
      expect(await serve({ limit: "2" })).toMatchObject({ read: true, items: [{ id: newest }, { id: newer }], nextCursor: null });
      expect(await serve({ status: "read" })).toMatchObject({ read: true, items: [] });
    } finally {
      await listeningConnection.close();
    }
  });

  it("counts every insert, change and delete of an owner's notifications, for that owner alone", async () => {
    const [owner, other] = [await freshClient(), await freshClient()];
    expect(await store.countChanges(owner)).toBe(0);
    const [id, moved] = [await notify(owner, "counted"), await notify(owner, "moved away")];
    await notify(other, "counted for the other");
    expect([await store.countChanges(owner), await store.countChanges(other)]).toEqual([2, 1]);
    await updateNotification({ store, ...owner, id, input: { status: "read" } });
    expect(await store.countChanges(owner)).toBe(3);
    await db.notification.update({ where: { id: moved }, data: { clientId: other.clientId, version: { increment: 1 } } });
    expect([await store.countChanges(owner), await store.countChanges(other)]).toEqual([4, 2]);
    await db.notification.delete({ where: { id } });
    expect([await store.countChanges(owner), await store.countChanges(other)]).toEqual([5, 2]);
    const everything = { limit: 10 };
    expect(await store.findPageWithChanges(other, everything)).toEqual({ rows: await store.findPage(other, everything), changes: 2 });
    // The owner has no notifications left; PostgreSQL reads the count with the rows, so an empty page comes without it.
    expect(await store.findPageWithChanges(owner, everything)).toEqual({ rows: [], changes: connection?.dialect === "postgresql" ? undefined : 5 });
  });
});

describe("getNotification and updateNotification", () => {
  it("answers 404 for another client's id and for the same client in another environment", async () => {
    const id = await notify(alice, "private");
    expect((await getNotification({ store, ...alice, id })).id).toBe(id);
    for (const owner of [bob, { ...alice, environmentId: aliceElsewhere.environmentId }, aliceElsewhere]) {
      const read = await rejection(getNotification({ store, ...owner, id }));
      const write = await rejection(updateNotification({ store, ...owner, id, input: { status: "read" } }));
      expect([read.status, write.status]).toEqual([404, 404]);
      expect(read.detail).toBe((await rejection(getNotification({ store, ...owner, id: "ntf_unknown" }))).detail?.replace("ntf_unknown", id));
    }
    expect((await getNotification({ store, ...alice, id })).status).toBe("unread");
  });

  it("sets readAt once on read, keeps it on archive, clears it on unread, bumping the version", async () => {
    const id = await notify(alice, "lifecycle");
    const read = await updateNotification({ store, ...alice, id, input: { status: "read" } });
    expect(read.readAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(read.version).toBe(2);
    const archived = await updateNotification({ store, ...alice, id, input: { status: "archived" } });
    expect(archived.readAt).toEqual(read.readAt);
    const readAgain = await updateNotification({ store, ...alice, id, input: { status: "read" } });
    expect(readAgain.readAt).toEqual(read.readAt);
    const unread = await updateNotification({ store, ...alice, id, input: { status: "unread" } });
    expect(unread).toMatchObject({ readAt: null, version: 5 });
    expect(await db.notification.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "unread", readAt: null, version: 5 });
  });

  it("accepts read-only fields equal to the stored ones and rejects changed ones by name", async () => {
    const id = await notify(alice, "echo");
    const row = await getNotification({ store, ...alice, id });
    const updated = await updateNotification({
      store,
      ...alice,
      id,
      input: { status: "read", id, title: "echo", body: "", link: null, createdAt: row.createdAt, readAt: null },
    });
    expect(updated.status).toBe("read");
    const problem = await rejection(updateNotification({ store, ...alice, id, input: { status: "unread", title: "changed", severity: "critical" } }));
    expect(problem.errors?.map((error) => error.field)).toEqual(["title", "severity"]);
    expect((await getNotification({ store, ...alice, id })).status).toBe("read");
  });

  it("honours If-Match, and of two concurrent updates with the same ETag exactly one wins", async () => {
    const id = await notify(alice, "race");
    const stale = await rejection(updateNotification({ store, ...alice, id, input: { status: "read" }, ifMatch: '"v9"' }));
    expect(stale.status).toBe(412);
    expect((await getNotification({ store, ...alice, id })).version).toBe(1);
    const results = await Promise.allSettled([
      updateNotification({ store, ...alice, id, input: { status: "read" }, ifMatch: '"v1"' }),
      updateNotification({ store, ...alice, id, input: { status: "archived" }, ifMatch: '"v1"' }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const failed = results.find((result) => result.status === "rejected");
    expect((failed as PromiseRejectedResult).reason).toMatchObject({ status: 412 });
    expect((await getNotification({ store, ...alice, id })).version).toBe(2);
  });

  it("sets a status without If-Match in one statement, and answers the same status or an unknown id after one read", async () => {
    const captured: string[] = [];
    const listeningConnection = openDriver(database.database.url, { onQuery: (sql) => captured.push(sql) });
    const listening = createNotificationStore(listeningConnection);
    const id = await notify(alice, "one statement");
    try {
      const read = await updateNotification({ store: listening, ...alice, id, input: { status: "read" } });
      expect(read).toMatchObject({ id, status: "read", version: 2 });
      expect(captured).toEqual([expect.stringMatching(/^UPDATE "Notification" .* RETURNING /)]);
      captured.length = 0;
      expect(await updateNotification({ store: listening, ...alice, id, input: { status: "read" } })).toEqual(read);
      expect(captured).toEqual([expect.stringMatching(/^UPDATE /), expect.stringMatching(/^SELECT /)]);
      expect((await rejection(updateNotification({ store: listening, ...bob, id, input: { status: "archived" } }))).status).toBe(404);
      expect(await db.notification.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "read", version: 2 });
    } finally {
      await listeningConnection.close();
    }
  });

  it("answers each of many concurrent updates without If-Match with its status, and stores the last one applied", async () => {
    const id = await notify(alice, "many at once");
    const statuses = ["read", "archived", "unread", "read", "archived", "archived", "unread", "read"] as const;
    const answers = await Promise.all(statuses.map((status) => updateNotification({ store, ...alice, id, input: { status } })));
    expect(answers.map((answer) => answer.status)).toEqual(statuses);
    const last = answers.reduce((latest, answer) => (answer.version > latest.version ? answer : latest));
    expect(await db.notification.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: last.status, version: last.version });
    // Every change applied was answered: versions 2 to the last, each bumped once.
    const applied = [...new Set(answers.map((answer) => answer.version))].filter((version) => version > 1).sort((a, b) => a - b);
    expect(applied).toEqual(Array.from({ length: last.version - 1 }, (_, index) => index + 2));
  });
});

describe("the store's times", () => {
  it("reads every stored time back as the ISO 8601 text of the same instant, whatever its milliseconds", async () => {
    const fresh = await freshClient();
    const instants = [
      "2026-03-01T10:00:00.000Z",
      "2026-03-01T10:00:00.100Z",
      "2026-03-01T10:00:00.120Z",
      "2026-03-01T10:00:00.123Z",
      "2026-03-01T10:00:59.009Z",
    ];
    for (const [index, instant] of instants.entries()) await notify(fresh, `at ${index}`, new Date(instant));
    const page = await listNotifications({ store, ...fresh, query: query({ limit: "10" }) });
    expect(page.items.map((item) => item.createdAt)).toEqual([...instants].reverse());
    const one = await getNotification({ store, ...fresh, id: page.items[0]!.id });
    expect(one.createdAt).toBe(instants.at(-1));
  });
});

describe.skipIf(POSTGRES_SERVER_URL !== undefined)("the SQLite store's page reads", () => {
  it("reads a page, first, again from the page cache, or after a cursor, in index order without sorting", async () => {
    const captured: { sql: string; params: unknown[] }[] = [];
    const listeningConnection = openDriver(database.database.url, { onQuery: (sql, params) => captured.push({ sql, params }) });
    const listening = createNotificationStore(listeningConnection);
    const pages = createPageCache();
    const fresh = await freshClient();
    // A second apart: notices made within one millisecond would be ordered by id, which could put "page 0" on the first page.
    const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000);
    const [oldest] = [await notify(fresh, "page 0", at(3)), await notify(fresh, "page 1", at(2)), await notify(fresh, "page 2", at(1))];
    const first = await pages({ store: listening, ...fresh, query: query({ limit: "2" }) });
    await pages({ store: listening, ...fresh, query: query({ limit: "2" }) });
    // A change off the first page: the owner's count moves, the first page's rows do not.
    await db.notification.update({ where: { id: oldest }, data: { status: "archived", version: { increment: 1 } } });
    await pages({ store: listening, ...fresh, query: query({ limit: "2" }) });
    await pages({ store: listening, ...fresh, query: query({ limit: "2", cursor: first.nextCursor! }) });
    await listeningConnection.close();
    const reader = new BetterSqlite(database.database.url.slice("file:".length), { readonly: true });
    const plan = ({ sql, params }: { sql: string; params: unknown[] }) =>
      reader
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((step) => (step as { detail: string }).detail)
        .join("; ");
    const counts = captured.filter(({ sql }) => sql.includes('"NotificationChanges"')).map(plan);
    const reads = captured.filter(({ sql }) => !sql.includes('"NotificationChanges"')).map(plan);
    reader.close();
    // Each first-page request reads the count first; the second finds it unchanged and reads nothing else.
    // The page after the cursor is read alone.
    expect(captured.map(({ sql }) => sql.includes('"NotificationChanges"'))).toEqual([true, false, true, true, false, false]);
    for (const count of counts) expect(count).toMatch(/USING PRIMARY KEY|sqlite_autoindex_NotificationChanges/);
    expect(reads).toHaveLength(3);
    for (const read of reads) {
      expect(read).toMatch(/USING (COVERING )?INDEX Notification_environmentId_clientId_createdAt_id_version_idx/);
      expect(read).not.toMatch(/TEMP B-TREE/);
    }
    expect(reads[1]).toMatch(/COVERING INDEX/);
  });
});

describe.skipIf(POSTGRES_SERVER_URL !== undefined)("the SQLite store while another connection holds the write lock", () => {
  it("waits for the lock without stalling the event loop, then applies the update", async () => {
    const [id, other] = [await notify(alice, "locked out for a while"), await notify(alice, "read meanwhile")];
    const writer = new BetterSqlite(database.database.url.slice("file:".length));
    writer.exec("BEGIN IMMEDIATE");
    let settled = false;
    const update = updateNotification({ store, ...alice, id, input: { status: "read" } }).finally(() => (settled = true));
    expect(await getNotification({ store, ...alice, id: other })).toMatchObject({ id: other });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    writer.exec("COMMIT");
    writer.close();
    expect(await update).toMatchObject({ status: "read", version: 2 });
    expect(await db.notification.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "read", version: 2 });
  });
});

describe("seedNotifications", () => {
  it("gives each demo client a few dozen notifications in every status, once", async () => {
    const owner = await freshClient();
    const credential = { envSlug: "qa", clientId: owner.clientId };
    await seedNotifications(db, [credential]);
    await seedNotifications(db, [credential]);
    const rows = await db.notification.findMany({ where: owner });
    expect(rows.length).toBeGreaterThanOrEqual(24);
    expect(new Set(rows.map((row) => row.status))).toEqual(new Set(["unread", "read", "archived"]));
    expect(rows.filter((row) => row.status === "unread").every((row) => row.readAt === null)).toBe(true);
  });
});
