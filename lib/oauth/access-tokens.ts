import "server-only";
import { hash, randomUUID } from "node:crypto";
import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from "jose";
import { audienceFor, issuerFor, isMcpResourceOf } from "./issuer";
import { type KeyStore, SIGNING_ALGORITHM } from "./signing-keys";

export const ACCESS_TOKEN_TYPE = "at+jwt";
/** The private claim naming the consent an agent's token is issued under. */
export const CONSENT_CLAIM = "gh_consent";
/** Clock skew tolerated on `exp`, `nbf` and `iat`. */
export const CLOCK_LEEWAY_SECONDS = 30;

export type TokenEnvironment = { id: string; slug: string };

export type IssuedAccessToken = { accessToken: string; expiresIn: number; scope: string; jti: string; expiresAt: Date };

/** An RFC 9068 access token signed with the environment's current key. */
export async function issueAccessToken(input: {
  keys: KeyStore;
  publicUrl: string;
  env: TokenEnvironment;
  clientId: string;
  scopes: readonly string[];
  lifetimeSeconds: number;
  /** the RFC 7638 thumbprint of the DPoP key the token is bound to (RFC 9449 §6) */
  jkt?: string;
  /** an agent's token: the MCP server it is for (RFC 8707), its `aud` in place of the environment's */
  resource?: string;
  /** an agent's token: the developer's consent it is issued under, whose last use its calls mark */
  consentId?: string;
}): Promise<IssuedAccessToken> {
  const { keys, publicUrl, env, clientId, lifetimeSeconds, jkt, resource, consentId } = input;
  const signing = await keys.signingKey(env.id);
  const issuedAt = Math.floor(Date.now() / 1000);
  const jti = randomUUID();
  const scope = input.scopes.join(" ");
  const accessToken = await new SignJWT({
    client_id: clientId,
    scope,
    env: env.slug,
    ...(jkt ? { cnf: { jkt } } : {}),
    ...(consentId ? { [CONSENT_CLAIM]: consentId } : {}),
  })
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, typ: ACCESS_TOKEN_TYPE, kid: signing.kid })
    .setIssuer(issuerFor(publicUrl, env.slug))
    .setAudience(resource ?? audienceFor(publicUrl, env.slug))
    .setSubject(clientId)
    .setJti(jti)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + lifetimeSeconds)
    .sign(signing.key);
  return { accessToken, expiresIn: lifetimeSeconds, scope, jti, expiresAt: new Date((issuedAt + lifetimeSeconds) * 1000) };
}

export type VerifiedAccessToken = {
  clientId: string;
  scopes: ReadonlySet<string>;
  scope: string;
  jti: string;
  issuedAt: number;
  expiresAt: number;
  issuer: string;
  audience: string;
  /** the MCP server an agent's token is for (its `aud`, RFC 8707); undefined for a token of the whole environment */
  resource?: string;
  envSlug: string;
  /** the thumbprint of the DPoP key the token is bound to; undefined for a bearer token */
  jkt?: string;
  /** the consent an agent's token is issued under; undefined for other tokens */
  consentId?: string;
};

/** Why a token was refused; `code` is the problem type the gateway answers with. */
export class TokenRejection extends Error {
  constructor(
    readonly code: "token-invalid" | "token-expired" | "token-wrong-environment",
    readonly detail: string,
    readonly extensions?: Record<string, unknown>,
    /** the client of a token whose signature verified, for the request log */
    readonly clientId?: string,
  ) {
    super(detail);
  }
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

function invalid(detail: string): TokenRejection {
  return new TokenRejection("token-invalid", detail);
}

function readClaims(payload: Record<string, unknown>, publicUrl: string, envSlug: string): VerifiedAccessToken {
  const { client_id: clientId, sub, scope, jti, iat, exp, iss, aud, env, cnf } = payload;
  if (typeof clientId !== "string" || sub !== clientId) throw invalid("The token's client_id and sub claims are missing or differ.");
  if (typeof scope !== "string" || typeof jti !== "string" || typeof iat !== "number" || typeof exp !== "number") {
    throw invalid("The token lacks a scope, jti, iat or exp claim.");
  }
  if (env !== envSlug) throw invalid("The token's env claim does not name this environment.");
  const resource = typeof aud === "string" && isMcpResourceOf(aud, publicUrl, envSlug) ? aud : undefined;
  if (aud !== audienceFor(publicUrl, envSlug) && resource === undefined) throw invalid("The token's aud claim is not acceptable here.");
  const bound = typeof cnf === "object" && cnf !== null ? (cnf as { jkt?: unknown }).jkt : undefined;
  if (cnf !== undefined && typeof bound !== "string") throw invalid("The token's cnf claim names no key thumbprint (jkt).");
  const jkt = bound as string | undefined;
  const consent = payload[CONSENT_CLAIM];
  return {
    jkt,
    ...(typeof consent === "string" && resource !== undefined ? { consentId: consent } : {}),
    clientId,
    scope,
    scopes: new Set(scope.split(" ").filter(Boolean)),
    jti,
    issuedAt: iat,
    expiresAt: exp,
    issuer: String(iss),
    audience: String(aud),
    resource,
    envSlug,
  };
}

async function verifyWith(key: CryptoKey, token: string, publicUrl: string, envSlug: string): Promise<VerifiedAccessToken> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [SIGNING_ALGORITHM],
      typ: ACCESS_TOKEN_TYPE,
      issuer: issuerFor(publicUrl, envSlug),
      clockTolerance: CLOCK_LEEWAY_SECONDS,
      requiredClaims: ["exp", "iat", "jti", "sub"],
    });
    return readClaims(payload, publicUrl, envSlug);
  } catch (error) {
    if (error instanceof TokenRejection) throw error;
    if (error instanceof errors.JWTExpired) {
      const clientId = typeof error.payload.client_id === "string" ? error.payload.client_id : undefined;
      throw new TokenRejection("token-expired", "The token has expired.", undefined, clientId);
    }
    if (error instanceof errors.JWTClaimValidationFailed) {
      const claim = error.claim === "nbf" ? "nbf (not valid yet)" : error.claim;
      throw invalid(`The token's ${claim} claim is not acceptable here.`);
    }
    if (error instanceof errors.JWSSignatureVerificationFailed) throw invalid("The token's signature does not verify.");
    throw invalid("The token is not a valid signed access token.");
  }
}

/**
 * Signature (RS256 only, this environment's published keys), `typ`, `iss`,
 * `aud` (the environment's, or one of its MCP servers'), `exp`/`nbf` with leeway. A token signed by another environment's key
 * is verified with that key so the answer can name both environments.
 */
export async function verifyAccessToken(input: {
  keys: KeyStore;
  publicUrl: string;
  env: TokenEnvironment;
  token: string;
  environmentSlugOf: (environmentId: string) => Promise<string | undefined>;
}): Promise<VerifiedAccessToken> {
  const { keys, publicUrl, env, token } = input;
  if (!COMPACT_JWS.test(token)) throw invalid("The token is not a compact JWS (header.payload.signature).");
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw invalid("The token's header cannot be decoded.");
  }
  if (header.alg !== SIGNING_ALGORITHM) throw invalid(`The algorithm "${String(header.alg)}" is not accepted; tokens are signed with RS256.`);
  if (typeof header.kid !== "string") throw invalid("The token names no signing key (kid).");
  const published = await keys.publishedKey(header.kid);
  if (!published) throw invalid("The token was not signed by a key of this gateway.");
  if (published.environmentId === env.id) return verifyWith(published.key, token, publicUrl, env.slug);
  const tokenEnvironment = await input.environmentSlugOf(published.environmentId);
  if (!tokenEnvironment) throw invalid("The token was not signed by a key of this gateway.");
  const { clientId } = await verifyWith(published.key, token, publicUrl, tokenEnvironment);
  throw new TokenRejection(
    "token-wrong-environment",
    `The token was issued for environment "${tokenEnvironment}" but was sent to environment "${env.slug}".`,
    { tokenEnvironment, calledEnvironment: env.slug },
    clientId,
  );
}

/** Cache key of a verified token: its hash, so the cache holds no usable tokens. */
export function tokenHash(token: string): string {
  return hash("sha256", token, "base64url");
}
