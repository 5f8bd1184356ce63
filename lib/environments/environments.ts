import "server-only";
import { z } from "zod";
import type { PortalUser } from "../actors/portal-user";
import { type DbClient, inTransaction } from "../db";
import { problem, validationProblem, zodProblem } from "../http/problem";
import { newId } from "../ids";
import { recordAudit } from "../audit/write-audit";
import { actorOf } from "../audit/portal-actor";
import { setEnvironmentRateLimit } from "../limiters/set-rate-limits";

const yesNo = z.enum(["yes", "no"], { message: "Choose yes or no" }).transform((value) => value === "yes");

export const environmentSettingsSchema = z.strictObject({
  name: z.string().trim().min(1, "Enter a name").max(100),
  credentialType: z.enum(["GLOBAL_SSO", "PLATFORM"], { message: "Choose Global SSO or Platform" }),
  tokenLifetimeSeconds: z.coerce.number().int("Use whole seconds").min(60, "At least 60 seconds").max(86_400, "At most 86400 seconds (24 h)"),
  selfService: yesNo,
  /** DPoP (RFC 9449) for every credential, and server nonces in proofs; left out, unchanged */
  requireDpop: yesNo.optional(),
  dpopNonce: yesNo.optional(),
});

export const newEnvironmentSchema = environmentSettingsSchema.extend({
  slug: z
    .string()
    .trim()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "Use lowercase letters, digits and single dashes")
    .max(40),
});

export function listEnvironments({ db }: { db: DbClient }) {
  return db.environment.findMany({ orderBy: [{ position: "asc" }, { slug: "asc" }] });
}

export async function createEnvironment({ db, admin, input }: { db: DbClient; admin: PortalUser; input: unknown }) {
  const parsed = newEnvironmentSchema.safeParse(input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  if (await db.environment.findUnique({ where: { slug: parsed.data.slug } })) {
    throw validationProblem([{ in: "body", field: "slug", message: "Another environment uses this slug" }]);
  }
  return inTransaction(db, async (tx) => {
    const position = await tx.environment.count();
    const environment = await tx.environment.create({ data: { id: newId("env"), position, ...parsed.data } });
    await recordAudit(tx, actorOf(admin), { action: "environment.create", targetType: "environment", targetId: environment.slug, details: parsed.data });
    return { slug: environment.slug };
  });
}

type EnvironmentChange = { db: DbClient; admin: PortalUser; slug: string; input: unknown };

export async function updateEnvironment({ db, admin, slug, input }: EnvironmentChange) {
  const parsed = environmentSettingsSchema.safeParse(input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const existing = slug ? await db.environment.findUnique({ where: { slug } }) : null;
  if (!existing) throw problem("not-found", { detail: `There is no environment "${slug}".` });
  await inTransaction(db, async (tx) => {
    await tx.environment.update({ where: { id: existing.id }, data: parsed.data });
    await recordAudit(tx, actorOf(admin), { action: "environment.update", targetType: "environment", targetId: slug, details: parsed.data });
  });
  return { slug };
}

export function setEnvironmentRateLimitFor({ db, admin, slug, input }: EnvironmentChange) {
  return setEnvironmentRateLimit({ db, actor: actorOf(admin), envSlug: slug, policy: input });
}
