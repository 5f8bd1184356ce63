import type { Metadata } from "next";
import { ApiKeyList } from "@/components/settings/api-key-list";
import { NewApiKeyForm } from "@/components/settings/new-api-key-form";
import { requireUser } from "@/lib/auth/session";
import { listApiKeys } from "@/lib/credentials/api-keys";
import { myApplications } from "@/lib/credentials/my-credentials";
import { db } from "@/lib/db";

export const metadata: Metadata = { title: "API keys" };
export const dynamic = "force-dynamic";

export default async function ApiKeysPage() {
  const user = await requireUser("/settings/api-keys");
  const [applications, keys] = await Promise.all([myApplications({ db: db(), user }), listApiKeys({ db: db(), viewer: { userId: user.id } })]);
  // A key belongs to an application's active credential in one environment: those are the places a key can be made.
  const places = applications
    .filter((application) => application.team.role !== "member")
    .flatMap((application) =>
      application.credentials
        .filter((credential) => credential.status === "ACTIVE")
        .map((credential) => ({ application: application.name, environment: credential.environment.slug, environmentName: credential.environment.name })),
    );
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-2xl font-bold">API keys</h1>
        <p className="text-slate-700">
          An API key calls the APIs that accept keys with its application&apos;s credential in one environment: the same grants, scopes and rate limit. Send it
          as <code className="font-mono">X-API-Key: gk_…</code> or <code className="font-mono">Authorization: Bearer gk_…</code>.
        </p>
      </div>
      <NewApiKeyForm places={places} />
      <ApiKeyList keys={JSON.parse(JSON.stringify(keys))} />
    </div>
  );
}
