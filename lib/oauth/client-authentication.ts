import "server-only";
import { decodeJwt } from "jose";
import type { Logger } from "pino";
import type { FailureCounter } from "../limiters/rate-limit";
import type { IncomingRequest } from "../http/message";
import { CLIENT_ASSERTION_TYPE } from "./assertion-rules";
import { AssertionRejection, type AssertionVerifier } from "./client-assertions";
import { isClientIdShaped, secretHashesEqual } from "./client-secrets";
import type { CredentialState, CredentialStates } from "./credential-states";
import { OAuthError } from "./oauth-error";

/**
 * Failed authentications answer 429 after this many per (client id, address)
 * and per address in one window. A correct secret from any other address is
 * never refused: secrets are 256-bit random values, so a lockout of the client
 * id would protect nothing and only let anyone who knows the id lock its owner out.
 */
export const MAX_FAILURES_PER_CLIENT_AND_ADDRESS = 10;
export const MAX_FAILURES_PER_ADDRESS = 100;
export const FAILURE_WINDOW_SECONDS = 60;

export type PresentedClient =
  | { clientId: string; clientSecret: string; method: "client_secret_basic" | "client_secret_post" }
  /** private_key_jwt, or an external issuer's ID token for a federated credential */
  | { clientId: string; assertion: string; method: "client_assertion" };

export type ClientAuthenticationFields = { client_id?: string; client_secret?: string; client_assertion_type?: string; client_assertion?: string };

function formDecode(value: string): string {
  return decodeURIComponent(value.replaceAll("+", " "));
}

function fromBasic(header: string): PresentedClient {
  const match = /^Basic ([A-Za-z0-9+/]+=*)$/i.exec(header.trim());
  if (!match) throw new OAuthError("invalid_request", "The Authorization header must be HTTP Basic with the client id and secret.");
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 1) throw new OAuthError("invalid_request", "HTTP Basic credentials must be client_id:client_secret.");
  try {
    return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)), method: "client_secret_basic" };
  } catch {
    throw new OAuthError("invalid_request", "HTTP Basic credentials must be form-urlencoded (RFC 6749 §2.3.1).");
  }
}

/** The client id an assertion names as its subject, read before its signature is checked; "" when it names none. */
function assertedSubject(assertion: string): string {
  try {
    const { sub } = decodeJwt(assertion);
    return typeof sub === "string" ? sub : "";
  } catch {
    return "";
  }
}

function fromAssertion(fields: ClientAuthenticationFields, authorization: string | null): PresentedClient {
  if (authorization !== null || fields.client_secret !== undefined) {
    throw new OAuthError("invalid_request", "Authenticate with one method: a client assertion, HTTP Basic or client_secret, not several.");
  }
  if (fields.client_assertion_type !== CLIENT_ASSERTION_TYPE) {
    throw new OAuthError("invalid_request", `The parameter client_assertion_type must be ${CLIENT_ASSERTION_TYPE}.`);
  }
  if (!fields.client_assertion) throw new OAuthError("invalid_request", "The parameter client_assertion is missing.");
  return { clientId: fields.client_id ?? assertedSubject(fields.client_assertion), assertion: fields.client_assertion, method: "client_assertion" };
}

/** The client's id and its secret or assertion, from HTTP Basic or the body; one method only (RFC 6749 §2.3, RFC 7521 §4.2). */
export function presentedClient(request: IncomingRequest, fields: ClientAuthenticationFields): PresentedClient {
  const authorization = request.headers.get("authorization");
  if (fields.client_assertion_type !== undefined || fields.client_assertion !== undefined) return fromAssertion(fields, authorization);
  const inBody = fields.client_id !== undefined || fields.client_secret !== undefined;
  if (authorization !== null && inBody) {
    throw new OAuthError("invalid_request", "Authenticate with HTTP Basic or with client_id and client_secret in the body, not both.");
  }
  if (authorization !== null) return fromBasic(authorization);
  if (!inBody) throw new OAuthError("invalid_request", "Client authentication is missing: use HTTP Basic, client_id and client_secret, or a client assertion.");
  if (!fields.client_id) throw new OAuthError("invalid_request", "The parameter client_id is missing.");
  if (!fields.client_secret) throw new OAuthError("invalid_request", "The parameter client_secret is missing.");
  return { clientId: fields.client_id, clientSecret: fields.client_secret, method: "client_secret_post" };
}

export type ClientAuthenticator = (input: {
  envId: string;
  envSlug: string;
  presented: PresentedClient;
  /** the caller's address, as the trusted proxies report it */
  clientAddress: string;
}) => Promise<{ credential: CredentialState; secretId?: string }>;

/** Compared against when the client id is unknown, so that path does the same work as a wrong secret. */
const NO_SECRET = { id: "", hash: "A".repeat(43), expiresAt: null };

async function throttled(failures: FailureCounter, keys: { pair: string; address: string }): Promise<OAuthError | undefined> {
  const [pair, address] = await Promise.all([failures.current(keys.pair), failures.current(keys.address)]);
  const over = [pair.count >= MAX_FAILURES_PER_CLIENT_AND_ADDRESS && pair, address.count >= MAX_FAILURES_PER_ADDRESS && address].filter(Boolean);
  if (over.length === 0) return undefined;
  const retryAfter = Math.max(1, ...over.map((window) => (window ? window.resetSeconds : 0)));
  return new OAuthError("temporarily_unavailable", "Too many failed attempts from this address; try again later.", {
    headers: { "retry-after": String(retryAfter) },
  });
}

/** Why a credential cannot authenticate at all, whatever the client presented. */
function credentialRefusal(credential: CredentialState | undefined, envId: string): string | undefined {
  if (!credential) return "unknown client id";
  if (credential.environmentId !== envId) return "credential of another environment";
  if (!credential.active) return "credential revoked";
  return undefined;
}

/**
 * Every failure answers the same `invalid_client`; the reason goes to the
 * server log only. Failures are throttled per (client id, address) and per
 * address. An unknown client id costs what a wrong secret costs: one hash, one
 * fresh read of the credential state (the same three statements whether or not
 * the id exists), and one comparison at least. A credential with keys or a trusted
 * issuer has no secret, and one with a secret accepts no assertion.
 */
export function createClientAuthenticator(deps: {
  states: CredentialStates;
  failures: FailureCounter;
  /** the keyed hash secrets are stored under */
  hashSecret: (secret: string) => string;
  verifyAssertion: AssertionVerifier;
  log: Logger;
}): ClientAuthenticator {
  async function withSecret(presented: { clientId: string; clientSecret: string }, envId: string) {
    const presentedHash = deps.hashSecret(presented.clientSecret);
    const matching = (state: CredentialState | undefined) => {
      const candidates = state && state.secrets.length > 0 ? state.secrets : [NO_SECRET];
      return candidates.filter((candidate) => secretHashesEqual(presentedHash, candidate.hash))[0];
    };
    const asked = performance.now();
    let credential = await deps.states.get(presented.clientId);
    let secret = matching(credential);
    if (!secret) {
      // A secret created or rotated in the last few seconds is not in the kept state yet. A
      // state read for this very call is not read again, so that every failure costs one
      // read, whether the id was kept, new or unknown.
      credential = await deps.states.refresh(presented.clientId, asked);
      secret = matching(credential);
    }
    const reason =
      credentialRefusal(credential, envId) ??
      (credential!.authentication.method !== "CLIENT_SECRET"
        ? "the credential authenticates with an assertion, not a secret"
        : !secret || (secret.expiresAt && secret.expiresAt <= new Date())
          ? "secret does not match a live secret"
          : undefined);
    return { credential, secretId: secret?.id, reason };
  }

  async function withAssertion(presented: { clientId: string; assertion: string }, envId: string, envSlug: string) {
    const asked = performance.now();
    let credential = await deps.states.get(presented.clientId);
    // A credential created in the last few seconds, or given keys since, is read again once.
    if (!credential || credential.authentication.method === "CLIENT_SECRET") credential = await deps.states.refresh(presented.clientId, asked);
    let reason = credentialRefusal(credential, envId);
    if (!reason) {
      try {
        await deps.verifyAssertion({ credential: credential!, assertion: presented.assertion, envSlug });
      } catch (error) {
        if (!(error instanceof AssertionRejection)) throw error;
        reason = `assertion refused: ${error.message}`;
      }
    }
    return { credential, secretId: undefined, reason };
  }

  return async ({ envId, envSlug, presented, clientAddress }) => {
    const keys = { pair: `token:${envSlug}:${presented.clientId.slice(0, 200)}|${clientAddress}`, address: `token-address:${clientAddress}` };
    const refusal = await throttled(deps.failures, keys);
    if (refusal) throw refusal;
    const { credential, secretId, reason } =
      presented.method === "client_assertion" ? await withAssertion(presented, envId, envSlug) : await withSecret(presented, envId);
    if (reason || !credential) {
      await Promise.all([deps.failures.record(keys.pair), deps.failures.record(keys.address)]);
      const clientId = isClientIdShaped(presented.clientId) ? presented.clientId : "(not a client id)";
      deps.log.info({ clientId, env: envSlug, method: presented.method, reason }, "client authentication failed");
      throw new OAuthError("invalid_client", "Client authentication failed.", { headers: { "www-authenticate": `Basic realm="${envSlug}"` } });
    }
    return { credential, secretId };
  };
}
