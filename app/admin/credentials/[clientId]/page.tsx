import type { Metadata } from "next";
import { Link } from "@/components/link";
import { notFound } from "next/navigation";
import { AdminAction } from "@/components/admin/admin-action";
import { AdminForm } from "@/components/admin/admin-form";
import { rateLimitFields } from "@/components/admin/rate-limit-fields";
import { describeRateLimit } from "@/components/settings/credential-list";
import { requireAdmin } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { findCredential } from "@/lib/credentials/credentials";
import { grantableApis } from "@/lib/credentials/grants";

type Props = { params: Promise<{ clientId: string }> };

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Credential ${(await params).clientId}` };
}

export default async function AdminCredentialPage({ params }: Props) {
  const { clientId } = await params;
  await requireAdmin(`/admin/credentials/${clientId}`);
  const [credential, apis] = await Promise.all([findCredential({ db: db(), clientId }), grantableApis({ db: db(), clientId })]);
  if (!credential || !apis) notFound();
  const { rateLimit } = credential;
  const active = credential.status === "ACTIVE";
  const grantAction = `/api/portal/admin/credentials/${credential.clientId}/grant`;
  const own = rateLimit.source === "credential";
  return (
    <div className="space-y-6">
      <p>
        <Link href="/admin/credentials" className="text-sm underline">
          All credentials
        </Link>
      </p>
      <h1 className="text-2xl font-bold">
        Credential <code className="break-all">{credential.clientId}</code>
      </h1>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium">Application</dt>
        <dd>{credential.application.name}</dd>
        <dt className="font-medium">Environment</dt>
        <dd>{credential.environment.name}</dd>
        <dt className="font-medium">Status</dt>
        <dd>{active ? "Active" : "Revoked"}</dd>
        <dt className="font-medium">Rate limit</dt>
        <dd>{describeRateLimit(rateLimit)}</dd>
      </dl>
      <section aria-labelledby="apis" className="space-y-2">
        <h2 id="apis" className="text-lg font-semibold">
          APIs
        </h2>
        <p className="text-sm text-slate-700">What this credential may call, with which scopes; changes apply on every instance within 1 second.</p>
        {credential.grants.length === 0 ? (
          <p className="text-sm">No API is granted.</p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white text-sm">
            {credential.grants.map((grant) => {
              const lacking = apis.find((api) => api.slug === grant.apiSlug)?.lacking ?? [];
              return (
                <li key={grant.apiId} className="flex flex-wrap items-start justify-between gap-2 p-2">
                  <div className="space-y-1">
                    <p>
                      {grant.apiName} (<code>{grant.apiSlug}</code>): {grant.scopes.join(", ") || "no scopes"}
                    </p>
                    {lacking.length > 0 ? <p className="text-amber-800">lacks scopes: {lacking.join(", ")}</p> : null}
                  </div>
                  {active ? (
                    <div className="flex flex-wrap gap-2">
                      {lacking.length > 0 ? (
                        <AdminAction action={grantAction} body={{ api: grant.apiSlug }} label={`Grant every scope of ${grant.apiSlug}`} />
                      ) : null}
                      <AdminAction
                        action={`/api/portal/admin/credentials/${credential.clientId}/revoke-grant`}
                        body={{ api: grant.apiSlug }}
                        label={`Revoke access to ${grant.apiSlug}`}
                        confirm={`Revoke ${credential.clientId}'s access to ${grant.apiSlug}? Its calls there are refused within 1 second.`}
                      />
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
        {active && apis.length > 0 ? (
          <AdminForm
            action={grantAction}
            submitLabel="Grant API"
            successMessage="API granted."
            fields={[
              { name: "api", label: "API", type: "select", options: apis.map((api) => ({ value: api.slug, label: `${api.name} (${api.slug})` })) },
              {
                name: "scopes",
                label: "Scopes (optional)",
                hint: "Separated by spaces; leave empty for every scope the API defines. Granting an API again sets its scopes.",
              },
            ]}
          />
        ) : null}
        {active && apis.length === 0 ? <p className="text-sm">No protected API is available in {credential.environment.name}.</p> : null}
      </section>
      <section aria-labelledby="rate-limit" className="space-y-2">
        <h2 id="rate-limit" className="text-lg font-semibold">
          Rate limit of this credential
        </h2>
        <p className="text-sm text-slate-700">Overrides the environment&apos;s default for this credential only; applies on every instance within 1 second.</p>
        <AdminForm
          action={`/api/portal/admin/credentials/${credential.clientId}/rate-limit`}
          submitLabel="Save rate limit"
          successMessage="Rate limit saved."
          fields={rateLimitFields(own ? rateLimit.burst : undefined, own ? rateLimit.perSecond : undefined)}
        />
        {own ? (
          <AdminAction
            action={`/api/portal/admin/credentials/${credential.clientId}/rate-limit`}
            body={{ clear: true }}
            label="Use the environment's default"
          />
        ) : null}
      </section>
    </div>
  );
}
