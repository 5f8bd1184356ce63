import "server-only";
import type { Actor } from "../audit/write-audit";
import { recordAudit } from "../audit/write-audit";
import { type DbClient, inTransaction } from "../db";
import { problem } from "../http/problem";

export type ConnectedAgent = {
  id: string;
  agentName: string;
  /** the host of the agent's client ID metadata document; null for an agent that registered itself */
  agentHost: string | null;
  api: string;
  environment: string;
  clientId: string;
  applicationName: string;
  scopes: string[];
  createdAt: Date;
  /** when the agent last got a token under this consent or last called its MCP server with one */
  lastUsedAt: Date | null;
};

/** The user's consents still in force, newest first. */
export async function listConnectedAgents(input: { db: DbClient; userId: string }): Promise<ConnectedAgent[]> {
  if (!input.userId) return [];
  const rows = await input.db.agentConsent.findMany({
    where: { userId: input.userId, revokedAt: null },
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      scopes: true,
      createdAt: true,
      lastUsedAt: true,
      agent: { select: { name: true, host: true } },
      api: { select: { name: true } },
      credential: { select: { clientId: true, application: { select: { name: true } }, environment: { select: { slug: true } } } },
    },
  });
  return rows.map((row) => ({
    id: row.id,
    agentName: row.agent.name,
    agentHost: row.agent.host,
    api: row.api.name,
    environment: row.credential.environment.slug,
    clientId: row.credential.clientId,
    applicationName: row.credential.application.name,
    scopes: row.scopes.split(" "),
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  }));
}

/**
 * Revokes one of the user's consents: its refresh tokens stop at once, and the access tokens
 * issued under it join the revoked tokens, which every gateway instance hears of as of any
 * revocation (lib/oauth/revoked-tokens.ts). Another user's consent is not found.
 */
export async function revokeConnectedAgent(input: { db: DbClient; actor: Actor; userId: string; id: string }): Promise<void> {
  const { db, userId, id } = input;
  const consent = userId ? await db.agentConsent.findFirst({ where: { id, userId }, select: { id: true, revokedAt: true, credential: true } }) : null;
  if (!consent) throw problem("not-found", { detail: `There is no connected agent "${id}".` });
  if (consent.revokedAt) return;
  const now = new Date();
  await inTransaction(db, async (tx) => {
    await tx.agentConsent.update({ where: { id }, data: { revokedAt: now } });
    const live = await tx.agentRefreshToken.findMany({
      where: { consentId: id, accessExpiresAt: { gt: now } },
      select: { accessJti: true, accessExpiresAt: true },
    });
    const known = new Set(
      (await tx.revokedToken.findMany({ where: { jti: { in: live.map((row) => row.accessJti) } }, select: { jti: true } })).map((row) => row.jti),
    );
    const revoked = live.filter((row) => !known.has(row.accessJti));
    if (revoked.length > 0) {
      await tx.revokedToken.createMany({
        data: revoked.map((row) => ({ jti: row.accessJti, environmentId: consent.credential.environmentId, expiresAt: row.accessExpiresAt })),
      });
    }
    await recordAudit(tx, input.actor, {
      action: "agent-consent.revoke",
      targetType: "agent-consent",
      targetId: id,
      details: { clientId: consent.credential.clientId },
    });
  });
}
