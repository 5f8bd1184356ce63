import type { Metadata } from "next";
import { AdminForm, type FormField } from "@/components/admin/admin-form";
import { rateLimitFields } from "@/components/admin/rate-limit-fields";
import { requireAdmin } from "@/lib/auth/session";
import { listEnvironments } from "@/lib/environments/environments";
import { db } from "@/lib/db";

export const metadata: Metadata = { title: "Environments" };
export const dynamic = "force-dynamic";

function settingsFields(env?: {
  name: string;
  credentialType: string;
  tokenLifetimeSeconds: number;
  selfService: boolean;
  requireDpop: boolean;
  dpopNonce: boolean;
}): FormField[] {
  return [
    { name: "name", label: "Name", defaultValue: env?.name },
    {
      name: "credentialType",
      label: "Credential type",
      type: "select",
      defaultValue: env?.credentialType,
      options: [
        { value: "GLOBAL_SSO", label: "Global SSO" },
        { value: "PLATFORM", label: "Platform" },
      ],
    },
    { name: "tokenLifetimeSeconds", label: "Token lifetime (seconds)", defaultValue: String(env?.tokenLifetimeSeconds ?? 3600) },
    {
      name: "selfService",
      label: "Self-service credentials",
      type: "select",
      defaultValue: env ? (env.selfService ? "yes" : "no") : "no",
      options: [
        { value: "no", label: "No: through an approved access request" },
        { value: "yes", label: "Yes: developers create their own" },
      ],
    },
    {
      name: "requireDpop",
      label: "DPoP-bound tokens (RFC 9449)",
      type: "select",
      defaultValue: env?.requireDpop ? "yes" : "no",
      options: [
        { value: "no", label: "Per credential: bearer tokens unless the credential requires DPoP" },
        { value: "yes", label: "Required: every credential needs a DPoP proof for a token" },
      ],
    },
    {
      name: "dpopNonce",
      label: "DPoP server nonces",
      type: "select",
      defaultValue: env?.dpopNonce ? "yes" : "no",
      options: [
        { value: "no", label: "No" },
        { value: "yes", label: "Yes: proofs carry the nonce the DPoP-Nonce header gives" },
      ],
    },
  ];
}

export default async function AdminEnvironmentsPage() {
  await requireAdmin("/admin/environments");
  const environments = await listEnvironments({ db: db() });
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold">Environments</h1>
      {environments.map((env) => (
        <section key={env.slug} aria-labelledby={`env-${env.slug}`} className="space-y-2">
          <h2 id={`env-${env.slug}`} className="text-lg font-semibold">
            {env.name} <code className="text-sm font-normal">{env.slug}</code>
          </h2>
          <AdminForm
            action={`/api/portal/admin/environments/${env.slug}`}
            submitLabel={`Save ${env.name}`}
            successMessage="Saved."
            fields={settingsFields(env)}
          />
          <h3 className="font-medium">Rate limit of {env.name}</h3>
          <p className="text-sm text-slate-700">
            The default of every credential in {env.name} without a limit of its own; applies on every instance within 1 second.
          </p>
          <AdminForm
            action={`/api/portal/admin/environments/${env.slug}/rate-limit`}
            submitLabel={`Save rate limit of ${env.name}`}
            successMessage="Rate limit saved."
            fields={rateLimitFields(env.rateLimitBurst, env.rateLimitPerSecond)}
          />
        </section>
      ))}
      <section aria-labelledby="new-environment" className="space-y-2">
        <h2 id="new-environment" className="text-lg font-semibold">
          New environment
        </h2>
        <AdminForm
          action="/api/portal/admin/environments"
          submitLabel="Create environment"
          successMessage="Environment created."
          fields={[{ name: "slug", label: "Slug", hint: "Part of the gateway URL: /gw/{slug}" }, ...settingsFields()]}
        />
      </section>
    </div>
  );
}
