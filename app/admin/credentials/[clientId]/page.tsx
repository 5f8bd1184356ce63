import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AdminAction } from "@/components/admin/admin-action";
import { AdminForm } from "@/components/admin/admin-form";
import { rateLimitFields } from "@/components/admin/rate-limit-fields";
import { describeRateLimit } from "@/components/settings/credential-list";
import { requireAdmin } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { findCredential } from "@/lib/credentials/credentials";

type Props = { params: Promise<{ clientId: string }> };

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Credential ${(await params).clientId}` };
}

export default async function AdminCredentialPage({ params }: Props) {
  const { clientId } = await params;
  await requireAdmin(`/admin/credentials/${clientId}`);
  const credential = await findCredential({ db: db(), clientId });
  if (!credential) notFound();
  const { rateLimit } = credential;
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
        <dd>{credential.status === "ACTIVE" ? "Active" : "Revoked"}</dd>
        <dt className="font-medium">Rate limit</dt>
        <dd>{describeRateLimit(rateLimit)}</dd>
      </dl>
      <section aria-labelledby="rate-limit" className="space-y-2">
        <h2 id="rate-limit" className="text-lg font-semibold">
          Rate limit of this credential
        </h2>
        <p className="text-sm text-slate-700">Overrides the environment&apos;s default for this credential only; applies on every instance within 5 seconds.</p>
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
