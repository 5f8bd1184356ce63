import type { CredentialType } from "../lib/db";

export const ENVIRONMENTS = [
  { slug: "sso-qa", name: "Global SSO QA", credentialType: "GLOBAL_SSO", selfService: true },
  { slug: "sso-prod", name: "Global SSO Production", credentialType: "GLOBAL_SSO", selfService: false },
  { slug: "platform-dev", name: "Platform Development", credentialType: "PLATFORM", selfService: true },
  { slug: "platform-prod", name: "Platform Production", credentialType: "PLATFORM", selfService: false },
] as const satisfies ReadonlyArray<{ slug: string; name: string; credentialType: CredentialType; selfService: boolean }>;

type SeedApi = {
  slug: string;
  name: string;
  summary: string;
  description: string;
  version: string;
  tags: string[];
  kind: "NOTIFICATIONS" | "TOKEN";
  isPublic: boolean;
  credentialType: CredentialType | null;
  releasedAt: Date;
  changelog: { version: string; date: string; notes: string }[];
  scopes: { name: string; description: string }[];
  environments: string[];
  /** its MCP server (lib/gateway/mcp/settings.ts); left out, off */
  mcp?: { enabled: boolean };
};

const ALL_ENVIRONMENTS = ENVIRONMENTS.map((env) => env.slug);
const ofType = (type: CredentialType) => ENVIRONMENTS.filter((env) => env.credentialType === type).map((env) => env.slug);

function tokenApi(type: CredentialType, label: string, slug: string, tag: string): SeedApi {
  return {
    slug,
    name: `${label} Access Token`,
    summary: `Exchange ${label} client credentials for a short-lived access token.`,
    description:
      `The OAuth 2.0 token endpoint of the ${label} environments (client credentials grant, RFC 6749 §4.4). ` +
      "Send your client ID and secret with HTTP Basic authentication or in the form body and receive a signed JWT " +
      "to present as a Bearer token to protected APIs in the same environment.",
    version: "1.0.0",
    tags: ["oauth2", "authentication", tag],
    kind: "TOKEN",
    isPublic: true,
    credentialType: type,
    releasedAt: new Date("2022-12-05T00:00:00Z"),
    changelog: [{ version: "1.0.0", date: "2022-12-05", notes: "Initial release: client credentials grant, revocation, introspection, JWKS and metadata." }],
    scopes: [],
    environments: ofType(type),
  };
}

export const BUILT_IN_APIS: SeedApi[] = [
  {
    slug: "notifications",
    name: "Notifications API",
    summary: "List, read and update the notifications sent to your client application.",
    description:
      "The Notifications API gives each client application its own inbox per environment: system, security, billing, " +
      "release and account notices. List them newest first with filters and cursor paging, fetch one with an ETag, " +
      "and mark them read, unread or archived with optimistic concurrency.",
    version: "1.0.0",
    tags: ["notifications", "messaging"],
    kind: "NOTIFICATIONS",
    isPublic: false,
    credentialType: null,
    releasedAt: new Date("2022-12-05T00:00:00Z"),
    changelog: [
      {
        version: "1.0.0",
        date: "2022-12-05",
        notes: "Initial release: GET /v1/notifications, GET /v1/notifications/{id}, PUT /v1/notifications/{id}.",
      },
    ],
    scopes: [
      { name: "notifications:read", description: "List and read notifications" },
      { name: "notifications:write", description: "Change the status of notifications" },
    ],
    environments: ALL_ENVIRONMENTS,
    mcp: { enabled: true },
  },
  tokenApi("GLOBAL_SSO", "Global SSO", "global-sso-token", "global-sso"),
  tokenApi("PLATFORM", "Platform", "platform-token", "platform"),
];

export const DEMO_ADMIN_EMAIL = "admin@example.com";
export const DEMO_DEVELOPER_EMAIL = "developer@example.com";
export const DEMO_APPLICATION_NAME = "Demo Application";
/** Environments in which the demo application gets a credential (self-service ones). */
export const DEMO_CREDENTIAL_ENVIRONMENTS = ["sso-qa", "platform-dev"] as const;
