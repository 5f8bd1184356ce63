import { CredentialActions } from "./credential-actions";
import { ExpiryBadge } from "./expiry-badge";

type Secret = { id: string; hint: string; createdAt: string; expiresAt: string | null; lastUsedAt: string | null };
export type CredentialView = {
  clientId: string;
  status: "ACTIVE" | "REVOKED";
  createdAt: string;
  lastUsedAt: string | null;
  environment: { slug: string; name: string; credentialType: string };
  grants: { apiSlug: string; apiName: string; scopes: string[] }[];
  rateLimit: { burst: number; perSecond: number; source: "credential" | "environment" };
  secrets: Secret[];
  /** DPoP (RFC 9449) required, by the credential or its environment */
  requireDpop: boolean;
  dpopRequiredBy: { credential: boolean; environment: boolean };
  authentication:
    | { method: "client_secret" }
    | { method: "private_key_jwt"; jwksUri: string | null; keyIds: string[] }
    | { method: "federated"; issuer: string; audience: string; subject: string };
};

/** How the client proves who it is, for a credential without secrets. */
function describeKeys(authentication: Exclude<CredentialView["authentication"], { method: "client_secret" }>): string {
  if (authentication.method === "federated") {
    return `None: ID tokens of ${authentication.issuer} for ${authentication.audience}, subject ${authentication.subject}`;
  }
  const where = authentication.jwksUri ? `published at ${authentication.jwksUri}` : `registered here (${authentication.keyIds.join(", ") || "no key ids"})`;
  return `None: private_key_jwt with keys ${where}`;
}

type TeamView = { id: string; name: string; personal: boolean; role: "owner" | "admin" | "member" };
type ApplicationView = { id: string; name: string; team: TeamView; credentials: CredentialView[] };

/** The applications grouped by team, in the order given (by team, then name). */
function byTeam(applications: ApplicationView[]): { team: TeamView; applications: ApplicationView[] }[] {
  const groups = new Map<string, { team: TeamView; applications: ApplicationView[] }>();
  for (const application of applications) {
    const group = groups.get(application.team.id) ?? { team: application.team, applications: [] };
    group.applications.push(application);
    groups.set(application.team.id, group);
  }
  return [...groups.values()];
}

export function describeRateLimit(rateLimit: CredentialView["rateLimit"]): string {
  const origin = rateLimit.source === "credential" ? "set for this credential" : "the environment's default";
  return `${rateLimit.perSecond} requests per second, bursts of ${rateLimit.burst} (${origin})`;
}

const formatTime = (value: string | null) => (value ? `${new Date(value).toISOString().replace("T", " ").slice(0, 16)} UTC` : "Never");

export function CredentialList({ applications }: { applications: ApplicationView[] }) {
  if (applications.length === 0) return <p className="text-slate-700">You have no applications yet. Create a credential above to start.</p>;
  return (
    <div className="space-y-8">
      {byTeam(applications).map(({ team, applications: teamApplications }) => (
        <section key={team.id} aria-labelledby={`team-${team.id}`} className="space-y-4">
          <h2 id={`team-${team.id}`} className="text-lg font-semibold">
            {team.personal ? `Personal team (${team.name})` : `Team ${team.name}`}{" "}
            <span className="text-sm font-normal text-slate-600">(your role: {team.role})</span>
          </h2>
          {teamApplications.map((application) => (
            <TeamApplication key={application.id} application={application} />
          ))}
        </section>
      ))}
    </div>
  );
}

function TeamApplication({ application }: { application: ApplicationView }) {
  const canChange = application.team.role !== "member";
  return (
    <section aria-labelledby={`app-${application.id}`} className="space-y-3">
      <h3 id={`app-${application.id}`} className="font-semibold">
        {application.name}
      </h3>
      {application.credentials.length === 0 ? <p className="text-sm text-slate-700">No credentials yet.</p> : null}
      <ul className="space-y-3">
        {application.credentials.map((credential) => (
          <li
            key={credential.clientId}
            aria-label={`${application.name} in ${credential.environment.name}`}
            className="space-y-2 rounded-lg border border-slate-200 bg-white p-4"
          >
            <div className="flex flex-wrap items-center gap-2">
              <h4 className="font-medium">{credential.environment.name}</h4>
              <span
                className={`rounded px-2 py-0.5 text-xs font-semibold ${credential.status === "ACTIVE" ? "bg-green-100 text-green-900" : "bg-slate-200 text-slate-800"}`}
              >
                {credential.status === "ACTIVE" ? "Active" : "Revoked"}
              </span>
              <span className="text-xs text-slate-600">{credential.environment.credentialType === "GLOBAL_SSO" ? "Global SSO" : "Platform"}</span>
            </div>
            <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
              <dt className="font-medium">Client ID</dt>
              <dd>
                <code className="break-all">{credential.clientId}</code>
              </dd>
              <dt className="font-medium">Created</dt>
              <dd>{formatTime(credential.createdAt)}</dd>
              <dt className="font-medium">Last used</dt>
              <dd>{formatTime(credential.lastUsedAt)}</dd>
              <dt className="font-medium">APIs</dt>
              <dd>{credential.grants.map((grant) => `${grant.apiName} (${grant.scopes.join(", ")})`).join("; ") || "None"}</dd>
              <dt className="font-medium">Rate limit</dt>
              <dd>{describeRateLimit(credential.rateLimit)}</dd>
              <dt className="font-medium">Tokens</dt>
              <dd>
                {credential.requireDpop ? "DPoP-bound (RFC 9449): send a DPoP proof for a token and with every call" : "Bearer"}
                {credential.dpopRequiredBy.environment ? " (required by the environment)" : null}
              </dd>
              <dt className="font-medium">Secrets</dt>
              <dd>
                {credential.authentication.method !== "client_secret" ? (
                  describeKeys(credential.authentication)
                ) : credential.secrets.length === 0 ? (
                  credential.status === "ACTIVE" ? (
                    "No secret yet"
                  ) : (
                    "None"
                  )
                ) : (
                  <ul>
                    {credential.secrets.map((secret) => (
                      <li key={secret.id} className="flex flex-wrap items-center gap-2">
                        <span>
                          ending in <code>{secret.hint}</code>, {secret.expiresAt ? `expires ${formatTime(secret.expiresAt)}` : "no expiry"}
                        </span>
                        <ExpiryBadge expiresAt={secret.expiresAt} />
                      </li>
                    ))}
                  </ul>
                )}
              </dd>
            </dl>
            {credential.status !== "ACTIVE" ? null : canChange ? (
              <CredentialActions
                clientId={credential.clientId}
                secrets={credential.authentication.method !== "client_secret" ? "none" : credential.secrets.length > 0 ? "rotate" : "first"}
                requiresDpop={credential.dpopRequiredBy.credential}
              />
            ) : (
              <p className="text-sm text-slate-700">As a member of the team you see this credential; its admins and owners rotate and revoke it.</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
