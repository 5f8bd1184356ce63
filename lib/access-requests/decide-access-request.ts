import "server-only";
import { z } from "zod";
import type { PortalUser } from "../actors/portal-user";
import { config } from "../config";
import { type DbClient, inTransaction, type Tx } from "../db";
import { withSavepoint } from "../database/savepoint";
import { problem, type ProblemError, zodProblem } from "../http/problem";
import { log } from "../log";
import { createNotifications } from "../notifications/create-notifications";
import { type Actor, recordAudit } from "../audit/write-audit";
import { createCredential, ensureApplication } from "../credentials/credentials";
import { writeGrant } from "../credentials/grants";
import { actorOf } from "../audit/portal-actor";
import { decideSignup } from "../accounts/signup";
import { recordEvent } from "../events/record-event";
import { grantSubscription } from "../subscriptions/subscribe";
import { accessRequestEvent } from "./contact";

export const rejectSchema = z.strictObject({ reason: z.string().trim().min(1, "Give a reason").max(1000, "Keep the reason under 1000 characters") });

/** An admin's decision on one request. Each decision is one transaction: the caller's when `db` is one. */
/** `actor` names who acted when it is not the admin in person, e.g. one of their access tokens. */
type Decision = { db: DbClient; admin: PortalUser; id: string; actor?: Actor };

function notFound(id: string): ProblemError {
  return problem("not-found", { detail: `There is no access request "${id}".` });
}

function alreadyDecided(id: string): ProblemError {
  return problem("already-decided", { detail: `The access request "${id}" was already decided.` });
}

/** Marks the request decided only if it is still pending, so two admins cannot both decide it. */
async function claimPending(tx: Tx, id: string, admin: PortalUser, status: "APPROVED" | "REJECTED", decisionReason: string | null) {
  const claimed = await tx.accessRequest.updateMany({
    where: { id, status: "PENDING" },
    data: { status, decidedById: admin.id, decidedAt: new Date(), decisionReason },
  });
  if (claimed.count === 1) return;
  if (!(await tx.accessRequest.findUnique({ where: { id } }))) throw notFound(id);
  throw alreadyDecided(id);
}

/**
 * The account the request came from, and only when it was sent signed in: an
 * email typed by an anonymous visitor proves nothing, and provisioning into
 * that address's account would hand its owner a credential they never asked for.
 */
async function requesterOf(tx: Tx, request: { requesterId: string | null }) {
  if (!request.requesterId) return null;
  const user = await tx.user.findUnique({ where: { id: request.requesterId } });
  return user && !user.disabledAt ? user : null;
}

/**
 * Approves a request. For credentials or API access this provisions, in the
 * same transaction, the requester's application, the credential (without a
 * secret: only its owner ever sees one) and the grants, then notifies that
 * client; if any step fails, nothing of the approval is stored.
 */
export async function approveAccessRequest({ db, admin, id, actor = actorOf(admin) }: Decision) {
  return inTransaction(db, async (tx) => {
    const request = await tx.accessRequest.findUnique({ where: { id }, include: { environment: true, api: { include: { scopes: true } }, plan: true } });
    if (!request) throw notFound(id);
    if (request.status !== "PENDING") throw alreadyDecided(id);
    if (request.topic === "ACCOUNT") {
      await claimPending(tx, id, admin, "APPROVED", null);
      await decideSignup({ db: tx, request, approved: true, actor });
      return { id, status: "APPROVED" as const, clientId: null };
    }
    const provisions = request.topic !== "OTHER" && request.environment;
    const requester = provisions ? await requesterOf(tx, request) : null;
    if (provisions && !requester) {
      throw problem("requester-without-account", {
        detail: `The request was not sent by an active signed-in account; ask ${request.email} to sign in and send it again from Contact Us.`,
      });
    }
    await claimPending(tx, id, admin, "APPROVED", null);
    const clientId = provisions && requester ? await provision(tx, request, requester.id, actor) : null;
    await recordAudit(tx, actor, {
      action: "access-request.approve",
      targetType: "access-request",
      targetId: id,
      details: { clientId, env: request.environment?.slug ?? null, api: request.api?.slug ?? null, requester: request.email },
    });
    await recordEvent(tx, "access_request.decided", {
      ...accessRequestEvent(request, { api: request.api?.slug, environment: request.environment?.slug }),
      decision: "approved",
      reason: null,
      clientId,
    });
    return { id, status: "APPROVED" as const, clientId };
  });
}

type ProvisionedRequest = {
  id: string;
  applicationName: string | null;
  /** a subscription's request: its application and the plan asked for */
  applicationId: string | null;
  plan: { id: string; slug: string } | null;
  environment: { id: string; slug: string; name: string } | null;
  api: { id: string; slug: string; name: string; isPublic: boolean; scopes: { name: string }[] } | null;
};

async function provision(tx: Tx, request: ProvisionedRequest, ownerId: string, actor: Actor): Promise<string> {
  const environment = request.environment!;
  if (request.plan && request.applicationId && request.api) {
    const { clientId } = await grantSubscription(tx, actor, { applicationId: request.applicationId, environment, api: request.api, plan: request.plan });
    await notifyApproval(tx, environment, clientId, request.api.name);
    return clientId;
  }
  const application = await ensureApplication({ db: tx, actor, ownerId, name: request.applicationName ?? "Application" });
  const apiScopes = request.api && !request.api.isPublic ? request.api.scopes.map((scope) => scope.name) : undefined;
  const existing = await tx.credential.findFirst({ where: { applicationId: application.id, environmentId: environment.id, status: "ACTIVE" } });
  let clientId: string;
  let credentialId: string;
  if (existing) {
    ({ clientId, id: credentialId } = existing);
    if (request.api && apiScopes) await writeGrant(tx, actor, existing, request.api, apiScopes);
  } else {
    const { credential } = await createCredential({
      db: tx,
      actor,
      applicationId: application.id,
      envSlug: environment.slug,
      scopes: apiScopes,
      withSecret: false,
    });
    ({ clientId, id: credentialId } = credential);
  }
  await tx.accessRequest.update({ where: { id: request.id }, data: { credentialId } });
  await notifyApproval(tx, environment, clientId, request.api?.name);
  return clientId;
}

/**
 * The approval stands even if the notice cannot be written; the requester also
 * sees it under Settings. The savepoint undoes just the failed notice: on
 * PostgreSQL a failed statement would otherwise abort the whole transaction.
 */
async function notifyApproval(tx: Tx, environment: { id: string; name: string }, clientId: string, apiName: string | undefined) {
  try {
    await withSavepoint(tx, () =>
      createNotifications({
        db: tx,
        environmentId: environment.id,
        recipients: { clientIds: [clientId] },
        title: `Access approved in ${environment.name}`,
        body: `${apiName ? `Access to ${apiName}` : "Your credential"} in ${environment.name} was approved. Generate the first secret under Settings → Client Credentials.`,
        category: "account",
        severity: "info",
        link: `${config().publicUrl}/settings/credentials`,
      }),
    );
  } catch (error) {
    log.error({ err: error, clientId }, "approval notification failed");
  }
}

export async function rejectAccessRequest({ db, admin, id, input, actor = actorOf(admin) }: Decision & { input: unknown }) {
  const parsed = rejectSchema.safeParse(input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  return inTransaction(db, async (tx) => {
    await claimPending(tx, id, admin, "REJECTED", parsed.data.reason);
    const request = await tx.accessRequest.findUniqueOrThrow({ where: { id }, include: { api: true, environment: true } });
    if (request.topic === "ACCOUNT") {
      await decideSignup({ db: tx, request, approved: false, actor });
      return { id, status: "REJECTED" as const };
    }
    await recordAudit(tx, actor, {
      action: "access-request.reject",
      targetType: "access-request",
      targetId: id,
      details: { reason: parsed.data.reason },
    });
    await recordEvent(tx, "access_request.decided", {
      ...accessRequestEvent(request, { api: request.api?.slug, environment: request.environment?.slug }),
      decision: "rejected",
      reason: parsed.data.reason,
      clientId: null,
    });
    return { id, status: "REJECTED" as const };
  });
}
