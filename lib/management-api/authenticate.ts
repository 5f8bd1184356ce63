import "server-only";
import type { Actor } from "../audit/write-audit";
import type { PortalUser } from "../actors/portal-user";
import type { Db } from "../db";
import { problem } from "../http/problem";
import { ACCESS_TOKEN_PATTERN, hashAccessToken } from "../access-tokens/access-tokens";
import { ADMIN_SCOPES, type AccessTokenScope, isAccessTokenScope } from "../access-tokens/scopes";

/** `lastUsedAt` is written at most this often per token, so reads stay reads. */
const LAST_USED_CADENCE_MS = 60_000;

/** Who calls the management API: a token, its owner as the database knows them now, and the scopes that still hold. */
export type TokenCaller = { tokenId: string; user: PortalUser; scopes: ReadonlySet<AccessTokenScope>; actor: Actor };

const CHALLENGE = { "www-authenticate": 'Bearer realm="gatehouse-management"' };

function invalid(detail: string) {
  return problem("access-token-invalid", { detail, headers: { "www-authenticate": `${CHALLENGE["www-authenticate"]}, error="invalid_token"` } });
}

/** The bearer token of `Authorization`; cookies are never read here. */
function presentedToken(headers: Headers): string {
  const header = headers.get("authorization");
  const [scheme, token, ...rest] = header?.trim().split(/\s+/) ?? [];
  if (!header || scheme?.toLowerCase() !== "bearer" || !token || rest.length > 0) {
    throw problem("access-token-required", { detail: "Send a personal access token as `Authorization: Bearer gpat_…`.", headers: CHALLENGE });
  }
  if (!ACCESS_TOKEN_PATTERN.test(token)) throw invalid("The bearer token is not a personal access token.");
  return token;
}

/**
 * The caller of a management API request. Admin scopes hold only while the
 * owner is an administrator: a demoted owner's token loses them at once.
 */
export async function authenticateAccessToken(db: Db, headers: Headers, now = new Date()): Promise<TokenCaller> {
  const hash = hashAccessToken(presentedToken(headers));
  const row = await db.accessToken.findUnique({
    where: { hash },
    select: {
      id: true,
      scopes: true,
      expiresAt: true,
      revokedAt: true,
      lastUsedAt: true,
      user: { select: { id: true, email: true, name: true, role: true, disabledAt: true } },
    },
  });
  if (!row) throw invalid("The access token is not known.");
  if (row.revokedAt) throw invalid(`The access token ${row.id} was revoked.`);
  if (row.expiresAt <= now) throw invalid(`The access token ${row.id} expired at ${row.expiresAt.toISOString()}.`);
  if (row.user.disabledAt) throw invalid("The access token's owner is disabled.");
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_CADENCE_MS) {
    // Conditional, so concurrent requests of one token write once.
    await db.accessToken.updateMany({
      where: { id: row.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - LAST_USED_CADENCE_MS) } }] },
      data: { lastUsedAt: now },
    });
  }
  const { disabledAt: _disabled, ...user } = row.user;
  const scopes = row.scopes
    .split(" ")
    .filter(isAccessTokenScope)
    .filter((scope) => user.role === "ADMIN" || !ADMIN_SCOPES.includes(scope));
  return { tokenId: row.id, user, scopes: new Set(scopes), actor: { userId: user.id, label: `token:${row.id}` } };
}

export function assertScope(caller: TokenCaller, scope: AccessTokenScope): void {
  if (caller.scopes.has(scope)) return;
  throw problem("access-token-scope-missing", {
    detail: `This operation needs the scope ${scope}.`,
    headers: { "www-authenticate": `${CHALLENGE["www-authenticate"]}, error="insufficient_scope", scope="${scope}"` },
    extensions: { scope },
  });
}
