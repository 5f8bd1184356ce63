// The documented receivers (docs/teams-email-webhooks.md), run as they are printed: each accepts a delivery signed by the
// portal and refuses one signed with another secret.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { actorOf } from "../../lib/audit/portal-actor";
import { SYSTEM_ACTOR } from "../../lib/audit/write-audit";
import { config } from "../../lib/config";
import { createCredential, ensureApplication } from "../../lib/credentials/credentials";
import { migratedDatabase } from "../../lib/database/migrated-database";
import type { Db } from "../../lib/db";
import { deliverDue } from "../../lib/events/delivery-worker";
import { newId } from "../../lib/ids";
import { createTeam } from "../../lib/teams/teams";
import { webhookDeliveries } from "../../lib/webhooks/deliveries";
import { createWebhookEndpoint } from "../../lib/webhooks/endpoints";
import { webhookChannel } from "../../lib/webhooks/webhook-channel";
import { seed } from "../../prisma/seed";
import { inheritedEnv } from "../support/child-env";
import { freePort } from "../support/server";

const LOCAL = { allowPrivate: true };
const PAGE = readFileSync(join(import.meta.dirname, "..", "..", "docs", "teams-email-webhooks.md"), "utf8");
const WEBHOOKS = PAGE.indexOf("\n## Webhooks\n");
const NEXT_SECTION = PAGE.indexOf("\n## ", WEBHOOKS + 1);
const SECTION = PAGE.slice(WEBHOOKS, NEXT_SECTION === -1 ? undefined : NEXT_SECTION);

function sample(language: "js" | "python"): string {
  const fence = "```";
  const match = new RegExp(`${fence}${language}\\n([\\s\\S]*?)${fence}`).exec(SECTION);
  if (!match) throw new Error(`no ${language} sample under "Webhooks" in docs/teams-email-webhooks.md`);
  return match[1]!;
}

let database: Awaited<ReturnType<typeof migratedDatabase>>;
let db: Db;
let directory: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  database = await migratedDatabase();
  db = database.db;
  await seed(db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
  directory = mkdtempSync(join(tmpdir(), "webhook-samples-"));
});

afterAll(async () => {
  for (const child of children) child.kill();
  rmSync(directory, { recursive: true, force: true });
  await database?.close();
});

/** Starts a sample with a secret and waits until it answers on its port. */
async function startSample(command: string, file: string, secret: string) {
  const port = await freePort();
  const child = spawn(command, [file], {
    env: { ...inheritedEnv(), NODE_ENV: "test", PORT: String(port), WEBHOOK_SECRET: secret },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  await vi.waitFor(() => fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" }), { timeout: 20_000, interval: 100 });
  return { url: `http://127.0.0.1:${port}/hook`, output: () => output };
}

describe.each([
  { language: "js" as const, command: process.execPath, file: "receiver.mjs" },
  { language: "python" as const, command: "python3", file: "receiver.py" },
])("the documented $language receiver", ({ language, command, file }) => {
  it("accepts a delivery signed with its secret and answers 401 to one signed with another", async () => {
    const owner = await db.user.create({
      data: { id: newId("usr"), email: `${language}@example.test`, name: language, role: "DEVELOPER", passwordHash: "unused" },
    });
    const portalOwner = { id: owner.id, email: owner.email, name: owner.name, role: owner.role };
    const team = await createTeam({ db, actor: SYSTEM_ACTOR, ownerId: owner.id, input: { name: `${language} receivers` } });
    const application = await ensureApplication({ db, actor: SYSTEM_ACTOR, ownerId: owner.id, teamId: team.id, name: `${language} app` });
    const events = ["credential.created"];
    const path = join(directory, file);
    writeFileSync(path, sample(language));

    const placeholder = await createWebhookEndpoint({
      db,
      actor: actorOf(portalOwner),
      input: { teamId: team.id, url: "http://127.0.0.1:9/", events },
      policy: LOCAL,
    });
    const receiver = await startSample(command, path, placeholder.secret);
    await db.webhookEndpoint.update({ where: { id: placeholder.endpoint.id }, data: { url: receiver.url } });
    const stranger = await createWebhookEndpoint({ db, actor: actorOf(portalOwner), input: { teamId: team.id, url: receiver.url, events }, policy: LOCAL });

    await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
    await deliverDue({ db, owner: "samples", channels: [webhookChannel({ db, authSecret: config().authSecret, policy: LOCAL })] });

    const [accepted] = await webhookDeliveries({ db, actor: SYSTEM_ACTOR, endpointId: placeholder.endpoint.id });
    expect(accepted).toMatchObject({ status: "delivered", attempts: [{ statusCode: 204 }] });
    const [refused] = await webhookDeliveries({ db, actor: SYSTEM_ACTOR, endpointId: stranger.endpoint.id });
    expect(refused).toMatchObject({ status: "pending", attempts: [{ statusCode: 401 }] });
    await vi.waitFor(() => expect(receiver.output()).toContain(`${accepted!.eventId} credential.created`), { timeout: 10_000, interval: 100 });
  });
});
