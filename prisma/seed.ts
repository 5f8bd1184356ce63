import type { Config } from "../lib/config";
import type { Db } from "../lib/db";
import { newId } from "../lib/ids";
import { firstVersion } from "../lib/api-lifecycle/versions";
import { SYSTEM_ACTOR } from "../lib/audit/write-audit";
import { createCredential } from "../lib/credentials/credentials";
import { ensurePersonalTeam } from "../lib/teams/teams";
import { hashPassword, randomPassword } from "../lib/accounts/passwords";
import { printSeedReport, type SeedReport } from "./seed-report";
import { seedNotifications } from "./seed-notifications";
import { BUILT_IN_APIS, DEMO_ADMIN_EMAIL, DEMO_APPLICATION_NAME, DEMO_CREDENTIAL_ENVIRONMENTS, DEMO_DEVELOPER_EMAIL, ENVIRONMENTS } from "./seed-data";

export type SeedOptions = Pick<Config, "seedDemo" | "seedAdminPassword" | "seedDeveloperPassword">;

/** Lines for the console, and only the console: they hold passwords and secrets. */

async function seedCatalog(db: Db): Promise<void> {
  for (const [position, env] of ENVIRONMENTS.entries()) {
    const existing = await db.environment.findUnique({ where: { slug: env.slug } });
    if (!existing) await db.environment.create({ data: { id: newId("env"), position, ...env } });
  }
  const environments = new Map((await db.environment.findMany()).map((env) => [env.slug, env.id]));
  for (const { scopes, environments: slugs, ...api } of BUILT_IN_APIS) {
    if (await db.api.findUnique({ where: { slug: api.slug } })) continue;
    await db.api.create({
      data: {
        id: newId("api"),
        ...api,
        versions: firstVersion({ openapiDocument: null, changelog: api.changelog, releasedAt: api.releasedAt }),
        scopes: { create: scopes },
        environments: { create: slugs.flatMap((slug) => (environments.has(slug) ? [{ environmentId: environments.get(slug)! }] : [])) },
      },
    });
  }
}

async function seedUser(db: Db, email: string, name: string, role: "ADMIN" | "DEVELOPER", password: string | undefined, report: SeedReport) {
  const existing = await db.user.findUnique({ where: { email } });
  if (existing) return existing;
  const chosen = password ?? randomPassword();
  const user = await db.user.create({ data: { id: newId("usr"), email, name, role, passwordHash: await hashPassword(chosen) } });
  report.push(`  ${role.toLowerCase().padEnd(9)} ${email}  password: ${chosen}`);
  return user;
}

/** Demo accounts and the demo application; later steps hang credentials and notifications on them. */
async function seedDemo(db: Db, options: SeedOptions, report: SeedReport) {
  await seedUser(db, DEMO_ADMIN_EMAIL, "Ada Admin", "ADMIN", options.seedAdminPassword, report);
  const developer = await seedUser(db, DEMO_DEVELOPER_EMAIL, "Dev Eloper", "DEVELOPER", options.seedDeveloperPassword, report);
  const team = await ensurePersonalTeam({ db, actor: SYSTEM_ACTOR, user: developer });
  const application =
    (await db.application.findFirst({ where: { teamId: team.id, name: DEMO_APPLICATION_NAME } })) ??
    (await db.application.create({
      data: { id: newId("app"), name: DEMO_APPLICATION_NAME, description: "Seeded for trying Gatehouse out.", teamId: team.id, ownerId: developer.id },
    }));
  const credentials = await seedDemoCredentials(db, application.id, report);
  await seedNotifications(db, credentials);
  return { developer, application, credentials };
}

/** The demo application's credential in each demo environment, with a secret printed once. */
async function seedDemoCredentials(db: Db, applicationId: string, report: SeedReport) {
  const credentials = [];
  for (const envSlug of DEMO_CREDENTIAL_ENVIRONMENTS) {
    const existing = await db.credential.findFirst({ where: { applicationId, environment: { slug: envSlug } } });
    if (existing) {
      credentials.push({ envSlug, clientId: existing.clientId });
      continue;
    }
    const { credential, secret } = await createCredential({ db, actor: SYSTEM_ACTOR, applicationId, envSlug });
    report.push(`  client    ${envSlug.padEnd(13)} client id: ${credential.clientId}  secret: ${secret?.clientSecret}`);
    credentials.push({ envSlug, clientId: credential.clientId });
  }
  return credentials;
}

/**
 * Idempotent: creates only what is missing, so a second run changes nothing.
 * The catalog (environments and built-in APIs) is always there; demo content
 * only when `seedDemo` is on.
 */
export async function seed(db: Db, options: SeedOptions): Promise<SeedReport> {
  const report: SeedReport = [];
  await seedCatalog(db);
  if (options.seedDemo) await seedDemo(db, options, report);
  return report;
}

export async function runSeed(): Promise<void> {
  const { config } = await import("../lib/config");
  const { db } = await import("../lib/db");
  printSeedReport(await seed(db(), config()));
}
