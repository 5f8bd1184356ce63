import type { Metadata } from "next";
import { DeprecationCallers } from "@/components/admin/deprecation-callers";
import { deprecationCallers } from "@/lib/api-lifecycle/deprecated-calls";
import { DEFAULT_USAGE_DAYS, subjectKey } from "@/lib/api-lifecycle/deprecation-usage";
import { requireAdmin } from "@/lib/auth/session";
import { db } from "@/lib/db";

export const metadata: Metadata = { title: "Deprecations" };
export const dynamic = "force-dynamic";

export default async function AdminDeprecationsPage() {
  await requireAdmin("/admin/deprecations");
  const deprecations = await deprecationCallers(db());
  const notices = await db().deprecationNotice.findMany({ where: { subject: { in: deprecations.map(({ deprecation }) => subjectKey(deprecation.subject)) } } });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Deprecations</h1>
      <p className="text-sm text-slate-700">
        Each deprecated API version and operation until its sunset date, with the clients that called it in the last {DEFAULT_USAGE_DAYS} days.
      </p>
      {deprecations.length === 0 ? (
        <p className="text-slate-700">No API version or operation is deprecated.</p>
      ) : (
        deprecations.map((entry) => (
          <DeprecationCallers
            key={subjectKey(entry.deprecation.subject)}
            {...entry}
            notice={notices.find((notice) => notice.subject === subjectKey(entry.deprecation.subject)) ?? null}
            days={DEFAULT_USAGE_DAYS}
          />
        ))
      )}
    </div>
  );
}
