import type { Metadata } from "next";
import { AdminForm } from "@/components/admin/admin-form";
import { requireAdmin } from "@/lib/auth/session";
import { db } from "@/lib/db";

export const metadata: Metadata = { title: "Notifications" };
export const dynamic = "force-dynamic";

const option = (value: string) => ({ value, label: value });

export default async function AdminNotificationsPage() {
  await requireAdmin("/admin/notifications");
  const environments = await db().environment.findMany({ orderBy: { position: "asc" }, select: { slug: true, name: true } });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Compose a notification</h1>
      <p className="text-slate-700">
        Clients read it through the Notifications API. Leave the client ID empty to reach every active client of the environment.
      </p>
      <AdminForm
        action="/api/portal/admin/notifications"
        submitLabel="Send notification"
        successMessage="Notification sent."
        fields={[
          { name: "environment", label: "Environment", type: "select", options: environments.map((env) => ({ value: env.slug, label: env.name })) },
          { name: "clientId", label: "Client ID", hint: "Empty: all clients of the environment" },
          { name: "title", label: "Title" },
          { name: "category", label: "Category", type: "select", options: ["system", "security", "billing", "release", "account"].map(option) },
          { name: "severity", label: "Severity", type: "select", options: ["info", "warning", "critical"].map(option) },
          { name: "body", label: "Body", type: "textarea" },
        ]}
      />
    </div>
  );
}
