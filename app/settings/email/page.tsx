import type { Metadata } from "next";
import { EmailPreferencesForm } from "@/components/settings/email-preferences-form";
import { requireUser } from "@/lib/auth/session";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { emailPreferences } from "@/lib/events/preferences";

export const metadata: Metadata = { title: "Email" };
export const dynamic = "force-dynamic";

export default async function EmailPreferencesPage() {
  const user = await requireUser("/settings/email");
  const preferences = await emailPreferences({ db: db(), userId: user.id });
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-bold">Email</h1>
        <p className="text-slate-700">
          Choose which events are sent to <strong>{user.email}</strong>. Invitations and the approval of your account are always sent.
        </p>
        {config().email ? null : (
          <p role="status" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
            This portal sends no email: its operators have not configured an SMTP server. Your choices apply once they do.
          </p>
        )}
      </div>
      <EmailPreferencesForm preferences={preferences} />
    </div>
  );
}
