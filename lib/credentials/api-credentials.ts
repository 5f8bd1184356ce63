import "server-only";
import type { PortalUser } from "../actors/portal-user";
import type { DbClient } from "../db";
import { listUserCredentials } from "./credentials";

export type MyApiCredential = {
  clientId: string;
  application: string;
  status: "ACTIVE" | "REVOKED";
  /** the soonest expiry of the secrets that still work; null when none expires */
  secretExpiresAt: Date | null;
  hasSecret: boolean;
  lastUsedAt: Date | null;
  /** DPoP (RFC 9449) required, by the credential or its environment */
  requireDpop: boolean;
};

/**
 * The user's credentials in one environment that can call the API: for a
 * public API (a token endpoint) every credential there, since any of them
 * asks it for tokens.
 */
export async function myApiCredentials(input: {
  db: DbClient;
  user: PortalUser;
  envSlug: string;
  api: { slug: string; isPublic: boolean };
}): Promise<MyApiCredential[]> {
  const { db, user, envSlug, api } = input;
  const credentials = await listUserCredentials({ db, userId: user.id });
  return credentials
    .filter((credential) => credential.environment.slug === envSlug)
    .filter((credential) => api.isPublic || credential.grants.some((grant) => grant.apiSlug === api.slug))
    .map((credential) => {
      const expiries = credential.secrets.flatMap((secret) => (secret.expiresAt ? [secret.expiresAt.getTime()] : []));
      const neverExpires = credential.secrets.some((secret) => secret.expiresAt === null);
      return {
        clientId: credential.clientId,
        application: credential.application.name,
        status: credential.status,
        secretExpiresAt: neverExpires || expiries.length === 0 ? null : new Date(Math.min(...expiries)),
        hasSecret: credential.secrets.length > 0,
        lastUsedAt: credential.lastUsedAt,
        requireDpop: credential.requireDpop,
      };
    });
}
