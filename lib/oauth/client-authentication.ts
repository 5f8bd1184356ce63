import "server-only";
import type { Logger } from "pino";
import type { FailureCounter } from "../gateway/rate-limit";
import type { IncomingRequest } from "../http/message";
import { hashClientSecret, isClientIdShaped, secretHashesEqual } from "./client-secrets";
import type { CredentialState, CredentialStates } from "./credential-states";
import { OAuthError } from "./oauth-error";

/** After this many failed authentications of one client id in one window, the token service answers 429. */
export const MAX_FAILURES_PER_WINDOW = 10;
export const FAILURE_WINDOW_SECONDS = 60;

export type PresentedClient = { clientId: string; clientSecret: string; method: "client_secret_basic" | "client_secret_post" };

function formDecode(value: string): string {
  return decodeURIComponent(value.replaceAll("+", " "));
}

function fromBasic(header: string): PresentedClient {
  const match = /^Basic ([A-Za-z0-9+/]+=*)$/i.exec(header.trim());
  if (!match) throw new OAuthError(400, "invalid_request", "The Authorization header must be HTTP Basic with the client id and secret.");
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 1) throw new OAuthError(400, "invalid_request", "HTTP Basic credentials must be client_id:client_secret.");
  try {
    return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)), method: "client_secret_basic" };
  } catch {
    throw new OAuthError(400, "invalid_request", "HTTP Basic credentials must be form-urlencoded (RFC 6749 §2.3.1).");
  }
}

/** The client's id and secret, from HTTP Basic or the body; one method only (RFC 6749 §2.3). */
export function presentedClient(request: IncomingRequest, fields: { client_id?: string; client_secret?: string }): PresentedClient {
  const authorization = request.headers.get("authorization");
  const inBody = fields.client_id !== undefined || fields.client_secret !== undefined;
  if (authorization !== null && inBody) {
    throw new OAuthError(400, "invalid_request", "Authenticate with HTTP Basic or with client_id and client_secret in the body, not both.");
  }
  if (authorization !== null) return fromBasic(authorization);
  if (!inBody) throw new OAuthError(400, "invalid_request", "Client authentication is missing: use HTTP Basic or client_id and client_secret.");
  if (!fields.client_id) throw new OAuthError(400, "invalid_request", "The parameter client_id is missing.");
  if (!fields.client_secret) throw new OAuthError(400, "invalid_request", "The parameter client_secret is missing.");
  return { clientId: fields.client_id, clientSecret: fields.client_secret, method: "client_secret_post" };
}

export type ClientAuthenticator = (input: { envId: string; envSlug: string; presented: PresentedClient }) => Promise<{ credential: CredentialState; secretId: string }>;

/**
 * Every failure answers the same `invalid_client`; the reason goes to the
 * server log only. Repeated failures for one client id are throttled.
 */
export function createClientAuthenticator(deps: { states: CredentialStates; failures: FailureCounter; authSecret: string; log: Logger }): ClientAuthenticator {
  return async ({ envId, envSlug, presented }) => {
    const failureKey = `${envSlug}:${presented.clientId.slice(0, 200)}`;
    const failures = await deps.failures.current(failureKey);
    if (failures.count >= MAX_FAILURES_PER_WINDOW) {
      throw new OAuthError(429, "temporarily_unavailable", "Too many failed attempts for this client; try again later.", {
        "retry-after": String(Math.max(1, failures.resetSeconds)),
      });
    }
    // Hashed before the lookup, so an unknown client id costs the same as a wrong secret.
    const presentedHash = hashClientSecret(presented.clientSecret, deps.authSecret);
    const matching = (state: CredentialState | undefined) => state?.secrets.find((candidate) => secretHashesEqual(presentedHash, candidate.hash));
    let credential = await deps.states.get(presented.clientId);
    let secret = matching(credential);
    if (credential && !secret) {
      // A secret created or rotated in the last few seconds is not in the kept state yet.
      credential = await deps.states.refresh(presented.clientId);
      secret = matching(credential);
    }
    const reason = !credential
      ? "unknown client id"
      : credential.environmentId !== envId
        ? "credential of another environment"
        : !credential.active
          ? "credential revoked"
          : !secret || (secret.expiresAt && secret.expiresAt <= new Date())
            ? "secret does not match a live secret"
            : undefined;
    if (reason || !credential || !secret) {
      await deps.failures.record(failureKey);
      const clientId = isClientIdShaped(presented.clientId) ? presented.clientId : "(not a client id)";
      deps.log.info({ clientId, env: envSlug, reason }, "client authentication failed");
      throw new OAuthError(401, "invalid_client", "Client authentication failed.", { "www-authenticate": `Basic realm="${envSlug}"` });
    }
    return { credential, secretId: secret.id };
  };
}
