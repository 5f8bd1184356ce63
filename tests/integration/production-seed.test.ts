// APP_ENV=production seeds environments and built-in APIs only: no demo account, password or
// client secret exists or is printed unless SEED_DEMO=1 asks for them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { startServer, type TestServer } from "../support/server";
import { openDb } from "./gateway-support";

const PRODUCTION = { APP_ENV: "production", AUTH_SECRET: "a-production-secret-of-32-characters-or-more" };
const DEMO_DATA_HEADING = "Gatehouse demo data";

let plain: TestServer;
let withDemo: TestServer;
let plainDb: Db;
let withDemoDb: Db;

beforeAll(async () => {
  [plain, withDemo] = await Promise.all([
    startServer({ env: { ...PRODUCTION, SEED_ADMIN_PASSWORD: "", SEED_DEVELOPER_PASSWORD: "" } }),
    startServer({ env: { ...PRODUCTION, SEED_DEMO: "1" } }),
  ]);
  plainDb = openDb(plain);
  withDemoDb = openDb(withDemo);
}, 120_000);

afterAll(async () => {
  await plainDb?.$disconnect();
  await withDemoDb?.$disconnect();
  await plain?.stop();
  await withDemo?.stop();
});

async function contents(db: Db) {
  const [environments, apis, users, applications, credentials, notifications] = await Promise.all([
    db.environment.count(),
    db.api.count(),
    db.user.findMany({ select: { email: true }, orderBy: { email: "asc" } }),
    db.application.count(),
    db.credential.count(),
    db.notification.count(),
  ]);
  return { environments, apis, users: users.map((user) => user.email), applications, credentials, notifications };
}

describe("seeding with APP_ENV=production", () => {
  it("creates environments and built-in APIs but no demo accounts, credentials or notifications, and prints none", async () => {
    const seeded = await contents(plainDb);
    expect(seeded).toMatchObject({ users: [], applications: 0, credentials: 0, notifications: 0 });
    expect(seeded.environments).toBe(4);
    expect(seeded.apis).toBeGreaterThan(0);
    const output = plain.output();
    expect(output).not.toContain(DEMO_DATA_HEADING);
    expect(output).not.toMatch(/password:|secret: gsk_|example\.com/);
  });

  it("seeds and prints the demo data when SEED_DEMO=1 says so", async () => {
    const seeded = await contents(withDemoDb);
    expect(seeded).toMatchObject({ users: ["admin@example.com", "developer@example.com"], applications: 1, credentials: 2 });
    expect(seeded.notifications).toBeGreaterThan(0);
    const output = withDemo.output();
    expect(output).toContain(DEMO_DATA_HEADING);
    expect(output).toMatch(/admin@example\.com {2}password: \S{12,}/);
    expect(output).toMatch(/client id: gci_\w+ {2}secret: gsk_/);
  });
});
