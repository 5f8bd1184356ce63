import "server-only";
import { z } from "zod";
import type { PortalUser } from "../actors/portal-user";
import { type DbClient, inTransaction } from "../db";
import { validationProblem, zodProblem } from "../http/problem";
import { createCredential, ensureApplication, revokeCredential } from "./credentials";
import { grantApi, revokeGrant } from "./grants";
import { actorOf } from "../audit/portal-actor";
import { setCredentialRateLimit } from "../limiters/set-rate-limits";

export const issueCredentialSchema = z.strictObject({
  owner: z.email("Enter the owner's email").max(320),
  application: z.string().trim().min(1, "Name the application").max(100),
  environment: z.string().trim().min(1, "Choose an environment"),
});

/**
 * Issues a credential to a user's application in any environment. It has no
 * secret yet: the owner generates the first one, so no admin ever sees it.
 */
export async function issueCredentialFor({ db, admin, input }: { db: DbClient; admin: PortalUser; input: unknown }) {
  const parsed = issueCredentialSchema.safeParse(input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const { owner: email, application: name, environment } = parsed.data;
  const [owner, env] = await Promise.all([
    db.user.findUnique({ where: { email: email.toLowerCase() } }),
    db.environment.findUnique({ where: { slug: environment } }),
  ]);
  const errors = [
    ...(owner ? [] : [{ in: "body" as const, field: "owner", message: "No user has this email" }]),
    ...(env ? [] : [{ in: "body" as const, field: "environment", message: "There is no such environment" }]),
  ];
  if (errors.length > 0 || !owner) throw validationProblem(errors);
  const actor = actorOf(admin);
  return inTransaction(db, async (tx) => {
    const application = await ensureApplication({ db: tx, actor, ownerId: owner.id, name });
    const { credential } = await createCredential({ db: tx, actor, applicationId: application.id, envSlug: environment, withSecret: false });
    return credential;
  });
}

/** `{ burst, perSecond }` sets the credential's own rate limit; `{ clear: true }` returns it to its environment's. */
type AdminCredentialAction = { db: DbClient; admin: PortalUser; clientId: string };

export function setCredentialRateLimitFor({ db, admin, clientId, input }: AdminCredentialAction & { input: unknown }) {
  const clear = typeof input === "object" && input !== null && "clear" in input && input.clear === true;
  return setCredentialRateLimit({ db, actor: actorOf(admin), clientId, policy: clear ? null : input });
}

export function revokeAnyCredential({ db, admin, clientId }: AdminCredentialAction) {
  return revokeCredential({ db, actor: actorOf(admin), clientId });
}

export const grantApiSchema = z.strictObject({
  api: z.string().trim().min(1, "Choose an API"),
  scopes: z.string().max(2000, "Keep the scopes under 2000 characters").optional(),
});

/** Scopes typed in the form, separated by spaces or commas; none grants every scope of the API. */
export function grantApiFor({ db, admin, clientId, input }: AdminCredentialAction & { input: unknown }) {
  const parsed = grantApiSchema.safeParse(input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const scopes = parsed.data.scopes?.split(/[\s,]+/).filter(Boolean);
  return grantApi({ db, actor: actorOf(admin), clientId, apiSlug: parsed.data.api, scopes: scopes?.length ? scopes : undefined });
}

export const revokeGrantSchema = z.strictObject({ api: z.string().trim().min(1, "Name the API") });

export function revokeGrantFor({ db, admin, clientId, input }: AdminCredentialAction & { input: unknown }) {
  const parsed = revokeGrantSchema.safeParse(input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  return revokeGrant({ db, actor: actorOf(admin), clientId, apiSlug: parsed.data.api });
}
