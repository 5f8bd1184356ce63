/**
 * The scopes of personal access tokens, declared once: the management API's
 * operations, the token form and the CLI read them from here.
 * Free of server-only imports: the Settings form shows them.
 */
export const ACCESS_TOKEN_SCOPES = {
  "credentials:read": "List your applications and credentials",
  "credentials:write": "Create credentials, rotate their secrets and revoke them",
  "usage:read": "Read the usage of your credentials",
  "teams:read": "List your teams with their members, invitations and applications",
  "teams:write": "Create teams, invite members and remove them",
  "webhooks:read": "List your teams' webhook endpoints and their deliveries",
  "webhooks:write": "Register webhook endpoints, rotate their secrets, delete them and replay deliveries",
  "admin:read": "Administrators: list environments, APIs and access requests",
  "admin:write": "Administrators: approve and reject access requests",
} as const;

export type AccessTokenScope = keyof typeof ACCESS_TOKEN_SCOPES;

export const ADMIN_SCOPES: readonly AccessTokenScope[] = ["admin:read", "admin:write"];

export function isAccessTokenScope(value: string): value is AccessTokenScope {
  return Object.hasOwn(ACCESS_TOKEN_SCOPES, value);
}

/** A token lives at most a year: a leaked one cannot stay useful forever. */
export const MAX_ACCESS_TOKEN_DAYS = 365;
