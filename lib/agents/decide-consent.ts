import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { DbClient } from "../db";
import { validationProblem } from "../http/problem";
import { newId } from "../ids";
import { tokenHash } from "../oauth/access-tokens";
import { issuerFor } from "../oauth/issuer";
import { teamApplicationsOf } from "../teams/team-access";
import type { AgentAuthorization } from "./authorization-request";
import { redirectWith } from "./authorization-request";
import { openConsentTicket } from "./consent-ticket";

/** An authorization code is exchanged within a minute, once. */
export const AUTHORIZATION_CODE_SECONDS = 60;

/** The consent form's fields. */
export const consentDecisionSchema = z.object({
  ticket: z.string().min(1).max(20_000),
  decision: z.enum(["approve", "deny"]),
  credential: z.string().max(100).optional(),
});

/**
 * The developer's credentials the agent may act as: active, in the environment, with a grant for
 * the API, and not held to DPoP-bound tokens, since an agent's are bearer tokens.
 */
export async function eligibleCredentials(db: DbClient, userId: string, authorization: Pick<AgentAuthorization, "environmentId" | "apiId">) {
  if (!userId) return [];
  const rows = await db.credential.findMany({
    where: {
      environmentId: authorization.environmentId,
      environment: { requireDpop: false },
      status: "ACTIVE",
      requireDpop: false,
      application: teamApplicationsOf(userId),
      grants: { some: { apiId: authorization.apiId } },
    },
    select: { id: true, clientId: true, application: { select: { name: true } }, grants: { where: { apiId: authorization.apiId }, select: { scopes: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((row) => ({ id: row.id, clientId: row.clientId, applicationName: row.application.name, scopes: row.grants[0]?.scopes.split(" ") ?? [] }));
}

/**
 * The developer's answer on the consent page, as the URL the browser goes back to the agent
 * with: a code (single use, 60 s, bound to the agent, redirect URI, PKCE challenge and
 * resource) for an approval, `access_denied` for a refusal (RFC 6749 §4.1.2).
 */
export async function decideConsent(input: { db: DbClient; userId: string; authSecret: string; publicUrl: string; form: unknown }): Promise<string> {
  const { db, userId } = input;
  const parsed = consentDecisionSchema.safeParse(input.form);
  if (!parsed.success)
    throw validationProblem(parsed.error.issues.map((issue) => ({ in: "body", field: String(issue.path[0] ?? ""), message: issue.message })));
  const authorization = openConsentTicket({ ticket: parsed.data.ticket, userId, authSecret: input.authSecret });
  if (!authorization) throw validationProblem([{ in: "body", field: "ticket", message: "has expired or is not yours; open the agent's sign-in link again" }]);
  const issuer = issuerFor(input.publicUrl, authorization.envSlug);
  const { redirectUri, state } = authorization;
  if (parsed.data.decision === "deny") {
    return redirectWith(redirectUri, { error: "access_denied", error_description: "The developer declined.", state }, issuer);
  }
  const credential = (await eligibleCredentials(db, userId, authorization)).find((each) => each.clientId === parsed.data.credential);
  if (!credential)
    throw validationProblem([{ in: "body", field: "credential", message: "must be one of your credentials in the environment with access to the API" }]);
  const scopes = authorization.scopes.filter((scope) => credential.scopes.includes(scope));
  if (scopes.length === 0) throw validationProblem([{ in: "body", field: "credential", message: "is granted none of the scopes the agent asks for" }]);
  const code = randomBytes(32).toString("base64url");
  const now = new Date();
  if (authorization.agentHost) {
    // An agent known by its client ID metadata document is stored at its first consent; its later ones keep it in use.
    await db.agentClient.upsert({
      where: { id: authorization.agentId },
      create: {
        id: authorization.agentId,
        environmentId: authorization.environmentId,
        name: authorization.agentName,
        host: authorization.agentHost,
        redirectUris: JSON.stringify([redirectUri]),
        lastUsedAt: now,
      },
      update: { name: authorization.agentName, host: authorization.agentHost, redirectUris: JSON.stringify([redirectUri]), lastUsedAt: now },
    });
  }
  await db.agentConsent.create({
    data: {
      id: newId("agt"),
      agentId: authorization.agentId,
      userId,
      credentialId: credential.id,
      apiId: authorization.apiId,
      resource: authorization.resource,
      scopes: scopes.join(" "),
      codes: {
        create: {
          hash: tokenHash(code),
          redirectUri,
          codeChallenge: authorization.codeChallenge,
          expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_SECONDS * 1000),
        },
      },
    },
  });
  return redirectWith(redirectUri, { code, state }, issuer);
}
