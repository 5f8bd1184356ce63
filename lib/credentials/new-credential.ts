import "server-only";
import type { PortalUser } from "../actors/portal-user";
import { actorOf } from "../audit/portal-actor";
import type { Actor } from "../audit/write-audit";
import { type DbClient, inTransaction } from "../db";
import { parseBody, problem, validationProblem } from "../http/problem";
import { requireTeamRole } from "../teams/team-access";
import { ensurePersonalTeam } from "../teams/teams";
import type { ClientKeys } from "./client-keys";
import { createCredential, ensureApplication } from "./credentials";
import { checkFetchedUrl } from "./fetched-url";
import { expiryFrom, type NewCredential, newCredentialSchema } from "./new-credential-schema";

/**
 * Who creates a credential. A developer (in the portal, or through one of their access tokens) creates
 * it for a team where they are an admin, in a self-service environment, with the URLs it names
 * checked now. The operator (the admin CLI) may name any team and environment, an owner, the scopes
 * granted and the secret's exact end. A developer's actor is they in person unless given (one of their tokens).
 */
export type CredentialCreator = { user: PortalUser; actor?: Actor } | { operator: Actor; ownerId: string | null; scopes?: string[]; secretExpiresAt?: Date };

function keysOf(input: NewCredential): ClientKeys | undefined {
  if (input.trust !== undefined) return { trust: input.trust };
  if (input.jwks !== undefined) return { jwks: input.jwks };
  if (input.jwksUri !== undefined) return { jwksUri: input.jwksUri };
  return undefined;
}

/**
 * The team a developer's new application goes to: the one chosen, else their personal team.
 * Either way they must be an admin there, as for every change of a team's applications, so a
 * personal team shared before sharing was refused cannot take credentials for someone it removed.
 */
async function developerTeam(db: DbClient, user: PortalUser, actor: Actor, chosen: string | undefined): Promise<string> {
  const teamId = chosen ?? (await ensurePersonalTeam({ db, actor, user })).id;
  const message = chosen ? "You are in no such team" : "You are no longer a member of your personal team: name a team";
  await requireTeamRole({ db, teamId, userId: user.id, needed: "admin", notFound: () => validationProblem([{ in: "body", field: "team", message }]) });
  return teamId;
}

/** A developer's checks before anything is written: environments that need approval go through Contact Us. */
async function checkDeveloperRequest(environment: { name: string; selfService: boolean }, data: NewCredential): Promise<void> {
  if (!environment.selfService) {
    throw problem("approval-required", {
      detail: `Credentials for ${environment.name} need an administrator's approval: ask through Contact Us.`,
      errors: [{ in: "body", field: "environment", message: `${environment.name} needs approval: ask through Contact Us` }],
    });
  }
  if (data.trust) await checkFetchedUrl(data.trust.issuer, "trust.issuer");
  if (data.jwksUri) await checkFetchedUrl(data.jwksUri, "jwksUri");
}

/** A new credential, and its application when the team has none of that name: the one way the portal, /api/v1 and the CLI create one. */
export async function createNewCredential({ db, input, by }: { db: DbClient; input: unknown; by: CredentialCreator }) {
  const data = parseBody(newCredentialSchema, input);
  const environment = await db.environment.findUnique({ where: { slug: data.environment } });
  if (!environment) throw validationProblem([{ in: "body", field: "environment", message: "There is no such environment" }]);
  if ("user" in by) await checkDeveloperRequest(environment, data);
  const actor = "user" in by ? (by.actor ?? actorOf(by.user)) : by.operator;
  return inTransaction(db, async (tx) => {
    const teamId = "user" in by ? await developerTeam(tx, by.user, actor, data.team) : data.team;
    const ownerId = "user" in by ? by.user.id : by.ownerId;
    const application = await ensureApplication({ db: tx, actor, ownerId, teamId, name: data.application });
    return createCredential({
      db: tx,
      actor,
      applicationId: application.id,
      envSlug: environment.slug,
      scopes: "operator" in by ? by.scopes : undefined,
      secretExpiresAt: ("operator" in by ? by.secretExpiresAt : undefined) ?? expiryFrom(data.expiresInDays),
      keys: keysOf(data),
      requireDpop: data.requireDpop,
    });
  });
}
