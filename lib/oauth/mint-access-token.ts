import "server-only";
import { config } from "../config";
import type { DbClient } from "../db";
import { problem, validationProblem } from "../http/problem";
import { issueAccessToken, type IssuedAccessToken } from "./access-tokens";
import type { KeyStore } from "./signing-keys";

/** Portal test tokens live 15 minutes at most. */
export const TEST_TOKEN_LIFETIME_SECONDS = 15 * 60;

/**
 * A token for a credential without its secret, for the portal's "try it"
 * (the caller has checked that the signed-in user owns the credential).
 * Same signing keys and claims as the token endpoint; scopes default to all
 * granted ones and cannot exceed them.
 */
export async function mintAccessToken(input: {
  db: DbClient;
  keys: KeyStore;
  envSlug: string;
  clientId: string;
  scopes?: string[];
  lifetimeSeconds?: number;
}): Promise<IssuedAccessToken & { tokenType: "Bearer" }> {
  const { db, keys, envSlug, clientId } = input;
  const lifetimeSeconds = input.lifetimeSeconds ?? TEST_TOKEN_LIFETIME_SECONDS;
  if (!Number.isInteger(lifetimeSeconds) || lifetimeSeconds < 1 || lifetimeSeconds > TEST_TOKEN_LIFETIME_SECONDS) {
    throw validationProblem([{ in: "body", field: "lifetimeSeconds", message: `must be a whole number from 1 to ${TEST_TOKEN_LIFETIME_SECONDS}` }]);
  }
  const credential = await db.credential.findUnique({ where: { clientId }, include: { environment: true, grants: true } });
  if (!credential || credential.environment.slug !== envSlug) {
    throw problem("not-found", { detail: `There is no credential "${clientId}" in "${envSlug}".` });
  }
  if (credential.status !== "ACTIVE") {
    throw problem("credential-revoked", { detail: `The credential ${clientId} is revoked.` });
  }
  const granted = [...new Set(credential.grants.flatMap((grant) => grant.scopes.split(" ").filter(Boolean)))].sort();
  const missing = (input.scopes ?? []).filter((scope) => !granted.includes(scope));
  if (missing.length > 0) throw validationProblem([{ in: "body", field: "scopes", message: `not granted: ${missing.join(" ")}` }]);
  const { publicUrl } = config();
  const issued = await issueAccessToken({
    keys,
    publicUrl,
    env: { id: credential.environmentId, slug: envSlug },
    clientId,
    scopes: input.scopes ? [...new Set(input.scopes)] : granted,
    lifetimeSeconds,
  });
  return { ...issued, tokenType: "Bearer" };
}
