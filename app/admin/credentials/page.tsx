import type { Metadata } from "next";
import { Link } from "@/components/link";
import { AdminAction } from "@/components/admin/admin-action";
import { AdminForm } from "@/components/admin/admin-form";
import { DataTable } from "@/components/data-table";
import { requireAdmin } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { listAllCredentials } from "@/lib/credentials/credentials";

export const metadata: Metadata = { title: "Credentials" };
export const dynamic = "force-dynamic";

const when = (value: Date | null) => (value ? `${value.toISOString().slice(0, 16).replace("T", " ")} UTC` : "never");

export default async function AdminCredentialsPage() {
  await requireAdmin("/admin/credentials");
  const [credentials, environments, users] = await Promise.all([
    listAllCredentials({ db: db() }),
    db().environment.findMany({ orderBy: { position: "asc" }, select: { slug: true, name: true } }),
    db().user.findMany({ select: { id: true, email: true } }),
  ]);
  const emails = new Map(users.map((user) => [user.id, user.email]));
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Credentials</h1>
      <section aria-labelledby="issue" className="space-y-2">
        <h2 id="issue" className="text-lg font-semibold">
          Issue a credential
        </h2>
        <p className="text-sm text-slate-700">The credential has no secret until its owner generates one under Settings, so no administrator sees it.</p>
        <AdminForm
          action="/api/portal/admin/credentials"
          submitLabel="Issue credential"
          successMessage="Credential issued. Its owner can generate the secret."
          fields={[
            { name: "owner", label: "Owner email", type: "email" },
            { name: "application", label: "Application name" },
            { name: "environment", label: "Environment", type: "select", options: environments.map((env) => ({ value: env.slug, label: env.name })) },
          ]}
        />
      </section>
      <DataTable
        caption="Every credential"
        minWidth="40rem"
        rows={credentials}
        rowKey={(credential) => credential.clientId}
        columns={[
          {
            header: "Client ID",
            cell: (credential) => (
              <Link href={`/admin/credentials/${credential.clientId}`} className="underline">
                <code>{credential.clientId}</code>
              </Link>
            ),
          },
          { header: "Application", cell: (credential) => credential.application.name },
          { header: "Owner", cell: (credential) => (credential.application.ownerId ? emails.get(credential.application.ownerId) : "none") },
          { header: "Environment", cell: (credential) => credential.environment.name },
          {
            header: "Status",
            cell: (credential) =>
              credential.status === "ACTIVE" ? `Active (${credential.secrets.length} secret${credential.secrets.length === 1 ? "" : "s"})` : "Revoked",
          },
          { header: "Last used", cell: (credential) => when(credential.lastUsedAt) },
          {
            header: "Actions",
            hideHeader: true,
            cell: (credential) =>
              credential.status === "ACTIVE" ? (
                <AdminAction
                  action={`/api/portal/admin/credentials/${credential.clientId}/revoke`}
                  label="Revoke"
                  confirm={`Revoke ${credential.clientId}? Its secrets and tokens stop working at once.`}
                />
              ) : null,
          },
        ]}
      />
    </div>
  );
}
