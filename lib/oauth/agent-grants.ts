import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { z } from "zod";
import type { AgentConsentRow, AgentStore } from "../data-plane/agent-store";
import type { EnvironmentRow } from "../data-plane/store";
import type { PlainResponse } from "../http/message";
import { issueAccessToken, tokenHash } from "./access-tokens";
import { agentRowIdOf } from "./agent-client-documents";
import { agentRevocationRequestSchema, authorizationCodeRequestSchema, refreshTokenRequestSchema } from "./agent-schemas";
import { OAuthError, oauthJson } from "./oauth-error";
import type { RevocationList } from "./revoked-tokens";
import type { KeyStore } from "./signing-keys";

/** A refresh token lives 30 days unused; each use replaces it. */
export const REFRESH_TOKEN_LIFETIME_SECONDS = 30 * 86_400;
/** A registration unused this long has expired. */
export const AGENT_REGISTRATION_LIFETIME_MS = 30 * 86_400_000;

export const AGENT_GRANT_TYPES = ["authorization_code", "refresh_token"] as const;

type Parse = <T extends z.ZodType>(schema: T, fields: Record<string, string>) => z.infer<T>;

/**
 * The grants of agents at the token endpoint, for public clients registered by RFC 7591: the
 * authorization code with PKCE S256 (RFC 7636), and refresh tokens rotated on every use, a reused
 * one revoking its whole family, the consent (RFC 9700 §4.14). Tokens carry the consent's
 * credential as `client_id` and `sub`, so the gateway counts the agent's calls as that
 * credential's, and `aud` is the consent's MCP server (RFC 8707).
 */
export function createAgentGrants(deps: { store: AgentStore; keys: KeyStore; publicUrl: string; revocations: RevocationList }) {
  const { store, revocations } = deps;

  async function revokeFamily(consentId: string, env: EnvironmentRow, now: Date): Promise<void> {
    for (const { jti, expiresAt } of await store.revokeConsent(consentId, now)) await revocations.revoke({ jti, environmentId: env.id, expiresAt });
  }

  async function agentOf(clientId: string, env: EnvironmentRow, now: Date) {
    const agent = await store.agent(agentRowIdOf(clientId, env.id));
    if (!agent || agent.environmentId !== env.id || now.getTime() - agent.lastUsedAt.getTime() > AGENT_REGISTRATION_LIFETIME_MS) {
      throw new OAuthError("invalid_client", "Client authentication failed.");
    }
    return agent;
  }

  async function usableConsent(consentId: string, agentId: string, resource: string | undefined, env: EnvironmentRow): Promise<AgentConsentRow> {
    const consent = await store.consent(consentId);
    if (!consent || consent.agentId !== agentId) throw new OAuthError("invalid_grant", "The grant was not issued to this client.");
    if (consent.revoked) throw new OAuthError("invalid_grant", "The developer's consent to this agent has been revoked.");
    if (!consent.credentialActive) throw new OAuthError("invalid_grant", "The credential the agent acts as has been revoked.");
    // An agent's token is a bearer token: a credential that may hold only DPoP-bound ones gets none.
    if (consent.requireDpop || env.requireDpop) throw new OAuthError("invalid_grant", "The credential the agent acts as requires DPoP-bound tokens.");
    if (resource !== undefined && resource !== consent.resource) {
      throw new OAuthError("invalid_target", `The grant is for the resource ${consent.resource}, not ${resource.slice(0, 200)}.`);
    }
    return consent;
  }

  async function issue(env: EnvironmentRow, consent: AgentConsentRow, now: Date, scopes = consent.scopes.split(" ")): Promise<PlainResponse> {
    const issued = await issueAccessToken({
      keys: deps.keys,
      publicUrl: deps.publicUrl,
      env,
      clientId: consent.clientId,
      scopes,
      lifetimeSeconds: env.tokenLifetimeSeconds,
      resource: consent.resource,
      consentId: consent.id,
    });
    const refreshToken = `grt_${randomBytes(32).toString("base64url")}`;
    await store.addRefreshToken(
      {
        hash: tokenHash(refreshToken),
        consentId: consent.id,
        accessJti: issued.jti,
        accessExpiresAt: issued.expiresAt,
        expiresAt: new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_SECONDS * 1000),
      },
      now,
    );
    await store.markUsed(consent, now);
    return oauthJson(200, {
      access_token: issued.accessToken,
      token_type: "Bearer",
      expires_in: issued.expiresIn,
      scope: issued.scope,
      refresh_token: refreshToken,
    });
  }

  async function authorizationCode(fields: Record<string, string>, env: EnvironmentRow, parse: Parse): Promise<PlainResponse> {
    const body = parse(authorizationCodeRequestSchema, fields);
    const now = new Date();
    const agent = await agentOf(body.client_id, env, now);
    const code = await store.takeCode(tokenHash(body.code), now);
    if (!code) throw new OAuthError("invalid_grant", "The authorization code is unknown or has expired.");
    // RFC 6749 §4.1.2: a code used twice revokes what it was exchanged for.
    if (!code.firstUse) {
      await revokeFamily(code.consentId, env, now);
      throw new OAuthError("invalid_grant", "The authorization code was used already; the tokens issued for it are revoked.");
    }
    if (code.expiresAt <= now) throw new OAuthError("invalid_grant", "The authorization code is unknown or has expired.");
    const consent = await usableConsent(code.consentId, agent.id, body.resource, env);
    if (code.redirectUri !== body.redirect_uri) throw new OAuthError("invalid_grant", "The redirect_uri differs from the authorization request's.");
    const challenge = createHash("sha256").update(body.code_verifier).digest("base64url");
    if (challenge !== code.codeChallenge) throw new OAuthError("invalid_grant", "The code_verifier does not match the code_challenge (S256).");
    return issue(env, consent, now);
  }

  async function refreshToken(fields: Record<string, string>, env: EnvironmentRow, parse: Parse): Promise<PlainResponse> {
    const body = parse(refreshTokenRequestSchema, fields);
    const now = new Date();
    const agent = await agentOf(body.client_id, env, now);
    const used = await store.useRefreshToken(tokenHash(body.refresh_token), now);
    if (!used) throw new OAuthError("invalid_grant", "The refresh token is unknown.");
    const consent = await usableConsent(used.consentId, agent.id, body.resource, env);
    if (!used.live) {
      await revokeFamily(used.consentId, env, now);
      throw new OAuthError("invalid_grant", "The refresh token was used already or has expired; every token of its grant is revoked.");
    }
    const granted = consent.scopes.split(" ");
    const asked = body.scope?.split(" ").filter(Boolean) ?? granted;
    if (asked.some((scope) => !granted.includes(scope))) throw new OAuthError("invalid_scope", "A refresh cannot widen the scopes the developer consented to.");
    return issue(env, consent, now, asked);
  }

  /**
   * RFC 7009 for agents: a refresh token revokes its consent's family and the access tokens
   * issued under it; an access token, itself. A token of another agent, or none known, changes
   * nothing and is answered as a revocation (§2.2), so the answer tells no one whose it is.
   */
  async function revoke(
    fields: Record<string, string>,
    env: EnvironmentRow,
    parse: Parse,
    verifyAccess: (token: string) => Promise<{ jti: string; expiresAt: number; consentId?: string } | undefined>,
  ): Promise<void> {
    const body = parse(agentRevocationRequestSchema, fields);
    const now = new Date();
    const agent = await agentOf(body.client_id, env, now);
    const isAgents = async (consentId: string | undefined) => consentId !== undefined && (await store.consent(consentId))?.agentId === agent.id;
    if (body.token.startsWith("grt_")) {
      const consentId = await store.refreshTokenConsent(tokenHash(body.token));
      if (await isAgents(consentId)) await revokeFamily(consentId!, env, now);
      return;
    }
    const access = await verifyAccess(body.token);
    if (access && (await isAgents(access.consentId))) {
      await revocations.revoke({ jti: access.jti, environmentId: env.id, expiresAt: new Date(access.expiresAt * 1000) });
    }
  }

  return { authorizationCode, refreshToken, revoke };
}

export type AgentGrants = ReturnType<typeof createAgentGrants>;
