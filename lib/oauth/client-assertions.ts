import "server-only";
import { createLocalJWKSet, errors, type JWTPayload, type JWTVerifyGetKey, type JWTVerifyOptions, jwtVerify } from "jose";
import type { SeenOnce } from "../limiters/seen-once";
import { ASSERTION_ALGORITHMS, MAX_ASSERTION_LIFETIME_SECONDS } from "./assertion-rules";
import type { CredentialState } from "./credential-states";
import { issuerFor } from "./issuer";
import type { RemoteKeySets } from "./remote-key-sets";
import { subjectMatches } from "./subject-pattern";

const CLOCK_TOLERANCE_SECONDS = 5;

/** Why an assertion was refused, for the server log; the client only ever sees `invalid_client`. */
export class AssertionRejection extends Error {}

export type AssertionVerifier = (input: { credential: CredentialState; assertion: string; envSlug: string }) => Promise<void>;

function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTClaimValidationFailed) return `claim ${error.claim}: ${error.message}`;
  return (error as Error).message;
}

/** Verifies with the key set, asking once more for a fresh one when it lacks the token's key. */
async function verifyWithKeys(assertion: string, keys: (refetch: boolean) => Promise<JWTVerifyGetKey>, options: JWTVerifyOptions): Promise<JWTPayload> {
  try {
    return (await jwtVerify(assertion, await keys(false), options)).payload;
  } catch (error) {
    if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
    return (await jwtVerify(assertion, await keys(true), options)).payload;
  }
}

/**
 * Checks a client assertion against the credential that the request names: a JWT the client
 * signed with one of its keys (private_key_jwt, RFC 7523 §3), or an ID token from the external
 * issuer the credential trusts (workload identity federation). Each `jti` is accepted once.
 */
export function createAssertionVerifier(deps: { keySets: RemoteKeySets; seen: SeenOnce; publicUrl: string }): AssertionVerifier {
  const { keySets, seen, publicUrl } = deps;
  const common = { algorithms: ASSERTION_ALGORITHMS, clockTolerance: CLOCK_TOLERANCE_SECONDS };

  async function firstUse(key: string, exp: number): Promise<void> {
    if (!(await seen.first(key, new Date(exp * 1000)))) throw new AssertionRejection("jti was used before");
  }

  async function privateKeyJwt(
    credential: CredentialState,
    assertion: string,
    envSlug: string,
    jwks: Parameters<typeof createLocalJWKSet>[0] | null,
    jwksUri: string | null,
  ) {
    const issuer = issuerFor(publicUrl, envSlug);
    const inline = jwks && createLocalJWKSet(jwks);
    const keys = (refetch: boolean) => (inline ? Promise.resolve(inline) : keySets.keys(jwksUri ?? "", refetch));
    const payload = await verifyWithKeys(assertion, keys, {
      ...common,
      issuer: credential.clientId,
      subject: credential.clientId,
      audience: [`${issuer}/oauth2/token`, issuer],
      requiredClaims: ["exp", "jti"],
    });
    const exp = payload.exp!;
    if (exp - Date.now() / 1000 > MAX_ASSERTION_LIFETIME_SECONDS + CLOCK_TOLERANCE_SECONDS) {
      throw new AssertionRejection(`exp is more than ${MAX_ASSERTION_LIFETIME_SECONDS} s ahead`);
    }
    await firstUse(`assertion:${credential.clientId}:${payload.jti}`, exp);
  }

  async function federated(assertion: string, trust: { issuer: string; audience: string; subject: string }) {
    const jwksUri = await keySets.issuerJwksUri(trust.issuer);
    const payload = await verifyWithKeys(assertion, (refetch) => keySets.keys(jwksUri, refetch), {
      ...common,
      issuer: trust.issuer,
      audience: trust.audience,
      requiredClaims: ["exp", "sub"],
    });
    if (!subjectMatches(trust.subject, payload.sub!)) throw new AssertionRejection(`subject ${JSON.stringify(payload.sub)} does not match the trusted subject`);
    if (payload.jti !== undefined) await firstUse(`federated:${trust.issuer}|${payload.jti}`, payload.exp!);
  }

  return async ({ credential, assertion, envSlug }) => {
    const { authentication } = credential;
    try {
      if (authentication.method === "PRIVATE_KEY_JWT") await privateKeyJwt(credential, assertion, envSlug, authentication.jwks, authentication.jwksUri);
      else if (authentication.method === "FEDERATED") await federated(assertion, authentication);
      else throw new AssertionRejection("the credential authenticates with a secret, not an assertion");
    } catch (error) {
      throw error instanceof AssertionRejection ? error : new AssertionRejection(reasonOf(error));
    }
  };
}
