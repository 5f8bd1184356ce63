import "server-only";
import type { PortalUser } from "../actors/portal-user";
import type { Db, DbClient } from "../db";
import { mintAccessToken } from "../oauth/mint-access-token";
import type { KeyStore } from "../oauth/signing-keys";
import { recordAudit } from "../audit/write-audit";
import { ownCredentialOrThrow } from "./my-credentials";
import { actorOf } from "../audit/portal-actor";
import { teamApplicationsOf } from "../teams/team-access";

/** A 15-minute token for a credential of one of the user's teams (any role), minted from the session: no secret passes through the browser. */
export async function mintMyTestToken({ db, keys, user, clientId }: { db: Db; keys: KeyStore; user: PortalUser; clientId: string }) {
  const credential = await ownCredentialOrThrow({ db, user, clientId });
  const token = await mintAccessToken({ db, keys, envSlug: credential.environment.slug, clientId });
  await recordAudit(db, actorOf(user), {
    action: "credential.test-token",
    targetType: "credential",
    targetId: clientId,
    details: { jti: token.jti, scope: token.scope, expiresAt: token.expiresAt.toISOString() },
  });
  return { accessToken: token.accessToken, tokenType: token.tokenType, expiresIn: token.expiresIn, scope: token.scope };
}

/** The active credentials of the user's teams in one environment that may call the API, for the Reference tab. */
export async function testTokenCandidates(input: { db: DbClient; user: PortalUser; envSlug: string; apiSlug: string }) {
  const { db, user, envSlug, apiSlug } = input;
  const credentials = await db.credential.findMany({
    where: {
      status: "ACTIVE",
      application: teamApplicationsOf(user.id),
      environment: { slug: envSlug },
      grants: { some: { api: { slug: apiSlug } } },
    },
    select: { clientId: true, application: { select: { name: true } } },
    orderBy: { createdAt: "asc" },
  });
  return credentials.map((credential) => ({ clientId: credential.clientId, application: credential.application.name }));
}
