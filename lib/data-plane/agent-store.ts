import "server-only";
import type { DriverConnection } from "./connection";
import { dialectOf } from "./dialect-for-connection";

/** A registered agent client (RFC 7591), public: it has no secret. */
export type AgentClientRow = { id: string; environmentId: string; name: string; redirectUris: string[]; lastUsedAt: Date };

/** A consent, with the credential the agent acts as. */
export type AgentConsentRow = {
  id: string;
  agentId: string;
  resource: string;
  scopes: string;
  revoked: boolean;
  clientId: string;
  credentialActive: boolean;
  /** the credential gets only DPoP-bound tokens, which an agent's are not */
  requireDpop: boolean;
  environmentId: string;
};

/** An authorization code taken for its one use, or found used already. */
export type TakenCode = { consentId: string; redirectUri: string; codeChallenge: string; expiresAt: Date; firstUse: boolean };

/** What the token service reads and writes of agents' registrations, codes, consents and refresh tokens; codes and tokens by hash. */
export type AgentStore = {
  registerAgent(agent: Omit<AgentClientRow, "lastUsedAt">, now: Date): Promise<void>;
  agent(id: string): Promise<AgentClientRow | undefined>;
  /** Deletes the registrations unused since `before`, with their consents. */
  deleteUnusedAgents(before: Date): Promise<void>;
  /** Marks the code used; `firstUse` false when it was used before. Undefined for an unknown code. */
  takeCode(hash: string, now: Date): Promise<TakenCode | undefined>;
  consent(id: string): Promise<AgentConsentRow | undefined>;
  addRefreshToken(token: { hash: string; consentId: string; accessJti: string; accessExpiresAt: Date; expiresAt: Date }, now: Date): Promise<void>;
  /** Marks the refresh token used: its consent and whether it was live (unused, unexpired) until then. Undefined for an unknown token. */
  useRefreshToken(hash: string, now: Date): Promise<{ consentId: string; live: boolean } | undefined>;
  /** The consent a refresh token, used or not, belongs to. */
  refreshTokenConsent(hash: string): Promise<string | undefined>;
  /** Revokes the consent, the family of its refresh tokens: the jtis of its access tokens still live, to be revoked too. */
  revokeConsent(id: string, now: Date): Promise<{ jti: string; expiresAt: Date }[]>;
  /** Sets the last use of the consent and its agent. */
  markUsed(consent: { id: string; agentId: string }, now: Date): Promise<void>;
};

/** The agent store on the connection's dialect, its statements prepared once. */
export function createAgentStore(connection: DriverConnection): AgentStore {
  const dialect = dialectOf(connection);
  const { param: p, text, all, get, run, time, isoTime, flag } = dialect;
  const at = (stored: string) => new Date(isoTime(stored));
  const SQL = {
    register: `INSERT INTO "AgentClient" ("id", "environmentId", "name", "redirectUris", "createdAt", "lastUsedAt") VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)})`,
    agent: `SELECT "id", "environmentId", "name", "redirectUris", "lastUsedAt" FROM "AgentClient" WHERE "id" = ${p(1)}`,
    deleteUnused: `DELETE FROM "AgentClient" WHERE "lastUsedAt" < ${p(1)}`,
    takeCode: `UPDATE "AgentAuthorizationCode" SET "usedAt" = ${p(1)} WHERE "hash" = ${p(2)} AND "usedAt" IS NULL RETURNING "consentId", "redirectUri", "codeChallenge", "expiresAt"`,
    code: `SELECT "consentId", "redirectUri", "codeChallenge", "expiresAt" FROM "AgentAuthorizationCode" WHERE "hash" = ${p(1)}`,
    consent: `SELECT "AgentConsent"."id", "AgentConsent"."agentId", "AgentConsent"."resource", "AgentConsent"."scopes", "AgentConsent"."revokedAt" IS NOT NULL AS "revoked", "Credential"."clientId", ${text(`"Credential"."status"`)} AS "status", "Credential"."requireDpop", "Credential"."environmentId" FROM "AgentConsent" JOIN "Credential" ON "Credential"."id" = "AgentConsent"."credentialId" WHERE "AgentConsent"."id" = ${p(1)}`,
    addRefresh: `INSERT INTO "AgentRefreshToken" ("hash", "consentId", "accessJti", "accessExpiresAt", "createdAt", "expiresAt") VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)})`,
    useRefresh: `UPDATE "AgentRefreshToken" SET "usedAt" = ${p(1)} WHERE "hash" = ${p(2)} AND "usedAt" IS NULL AND "expiresAt" > ${p(3)} RETURNING "consentId"`,
    refresh: `SELECT "consentId" FROM "AgentRefreshToken" WHERE "hash" = ${p(1)}`,
    revokeConsent: `UPDATE "AgentConsent" SET "revokedAt" = ${p(1)} WHERE "id" = ${p(2)} AND "revokedAt" IS NULL`,
    liveAccess: `SELECT "accessJti", "accessExpiresAt" FROM "AgentRefreshToken" WHERE "consentId" = ${p(1)} AND "accessExpiresAt" > ${p(2)}`,
    markConsent: `UPDATE "AgentConsent" SET "lastUsedAt" = ${p(1)} WHERE "id" = ${p(2)}`,
    markAgent: `UPDATE "AgentClient" SET "lastUsedAt" = ${p(1)} WHERE "id" = ${p(2)}`,
  };
  type CodeColumns = { consentId: string; redirectUri: string; codeChallenge: string; expiresAt: string };
  const code = (row: CodeColumns, firstUse: boolean): TakenCode => ({ ...row, expiresAt: at(row.expiresAt), firstUse });

  return {
    async registerAgent({ id, environmentId, name, redirectUris }, now) {
      await run(SQL.register, [id, environmentId, name, JSON.stringify(redirectUris), time(now), time(now)]);
    },
    async agent(id) {
      const row = await get<{ id: string; environmentId: string; name: string; redirectUris: string; lastUsedAt: string }>(SQL.agent, [id]);
      return row && { ...row, redirectUris: JSON.parse(row.redirectUris) as string[], lastUsedAt: at(row.lastUsedAt) };
    },
    async deleteUnusedAgents(before) {
      await run(SQL.deleteUnused, [time(before)]);
    },
    async takeCode(hash, now) {
      const taken = await get<CodeColumns>(SQL.takeCode, [time(now), hash]);
      if (taken) return code(taken, true);
      const used = await get<CodeColumns>(SQL.code, [hash]);
      return used && code(used, false);
    },
    async consent(id) {
      const row = await get<Omit<AgentConsentRow, "revoked" | "credentialActive" | "requireDpop"> & { revoked: unknown; requireDpop: unknown; status: string }>(
        SQL.consent,
        [id],
      );
      if (!row) return undefined;
      const { status, revoked, requireDpop, ...rest } = row;
      return { ...rest, revoked: flag(revoked), requireDpop: flag(requireDpop), credentialActive: status === "ACTIVE" };
    },
    async addRefreshToken({ hash, consentId, accessJti, accessExpiresAt, expiresAt }, now) {
      await run(SQL.addRefresh, [hash, consentId, accessJti, time(accessExpiresAt), time(now), time(expiresAt)]);
    },
    async useRefreshToken(hash, now) {
      const used = await get<{ consentId: string }>(SQL.useRefresh, [time(now), hash, time(now)]);
      if (used) return { consentId: used.consentId, live: true };
      const known = await get<{ consentId: string }>(SQL.refresh, [hash]);
      return known && { consentId: known.consentId, live: false };
    },
    async refreshTokenConsent(hash) {
      return (await get<{ consentId: string }>(SQL.refresh, [hash]))?.consentId;
    },
    async revokeConsent(id, now) {
      await run(SQL.revokeConsent, [time(now), id]);
      const rows = await all<{ accessJti: string; accessExpiresAt: string }>(SQL.liveAccess, [id, time(now)]);
      return rows.map((row) => ({ jti: row.accessJti, expiresAt: at(row.accessExpiresAt) }));
    },
    async markUsed(consent, now) {
      await run(SQL.markConsent, [time(now), consent.id]);
      await run(SQL.markAgent, [time(now), consent.agentId]);
    },
  };
}
