import "server-only";
import { type DbClient, inTransaction } from "../db";
import { problem, zodProblem } from "../http/problem";
import { type Actor, recordAudit } from "../audit/write-audit";
import { credentialOverride, effectiveRateLimit, type RateLimitPolicy, rateLimitPolicySchema } from "./rate-limit-policy";

// Every gateway instance reads environments and credential state again within 1 s of a change (DESIGN §6).

function parsePolicy(input: unknown): RateLimitPolicy {
  const parsed = rateLimitPolicySchema.safeParse(input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  return parsed.data;
}

/** Sets the default rate limit of every credential of the environment without an override of its own. */
export async function setEnvironmentRateLimit(input: { db: DbClient; actor: Actor; envSlug: string; policy: unknown }) {
  const { db, actor, envSlug } = input;
  const policy = parsePolicy(input.policy);
  const env = envSlug ? await db.environment.findUnique({ where: { slug: envSlug } }) : null;
  if (!env) throw problem("not-found", { detail: `There is no environment "${envSlug}".` });
  await inTransaction(db, async (tx) => {
    await tx.environment.update({ where: { id: env.id }, data: { rateLimitBurst: policy.burst, rateLimitPerSecond: policy.perSecond } });
    await recordAudit(tx, actor, {
      action: "environment.rate-limit",
      targetType: "environment",
      targetId: envSlug,
      details: { from: { burst: env.rateLimitBurst, perSecond: env.rateLimitPerSecond }, to: policy },
    });
  });
  return { env: envSlug, ...policy };
}

/** Sets the credential's own rate limit, or clears it when `policy` is null, so that it follows its environment again. */
export async function setCredentialRateLimit(input: { db: DbClient; actor: Actor; clientId: string; policy: unknown }) {
  const { db, actor, clientId } = input;
  const policy = input.policy === null ? null : parsePolicy(input.policy);
  const credential = clientId ? await db.credential.findUnique({ where: { clientId }, include: { environment: true } }) : null;
  if (!credential) throw problem("not-found", { detail: `There is no credential "${clientId}".` });
  const columns = { rateLimitBurst: policy?.burst ?? null, rateLimitPerSecond: policy?.perSecond ?? null };
  await inTransaction(db, async (tx) => {
    await tx.credential.update({ where: { id: credential.id }, data: columns });
    await recordAudit(tx, actor, {
      action: policy ? "credential.rate-limit" : "credential.rate-limit.clear",
      targetType: "credential",
      targetId: clientId,
      details: { env: credential.environment.slug, from: credentialOverride(credential), to: policy },
    });
  });
  return { clientId, env: credential.environment.slug, override: policy, effective: effectiveRateLimit(columns, credential.environment) };
}
