import type { Metadata } from "next";
import { DataTable } from "@/components/data-table";
import { requireAdmin } from "@/lib/auth/session";
import { recentAuditEvents } from "@/lib/audit/read-audit-log";
import { firstParam, type SearchParams } from "@/lib/http/search-params";
import { db } from "@/lib/db";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

export default async function AdminAuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireAdmin("/admin/audit");
  const filter = await searchParams;
  const events = await recentAuditEvents({ db: db(), filter: { action: firstParam(filter.action, 100), target: firstParam(filter.target, 100) } });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Audit log</h1>
      <form className="flex flex-wrap items-end gap-3 text-sm" method="get">
        <label className="space-y-1">
          <span className="block font-medium">Action starts with</span>
          <input name="action" defaultValue={filter.action} className="rounded border border-slate-400 px-2 py-1" />
        </label>
        <label className="space-y-1">
          <span className="block font-medium">Target</span>
          <input name="target" defaultValue={filter.target} className="rounded border border-slate-400 px-2 py-1" />
        </label>
        <button type="submit" className="rounded-md border border-slate-400 bg-white px-3 py-1.5 font-medium">
          Filter
        </button>
      </form>
      <DataTable
        caption="Newest events first"
        minWidth="40rem"
        rows={events}
        rowKey={(event) => event.id}
        columns={[
          { header: "When (UTC)", className: "whitespace-nowrap", cell: (event) => event.at.toISOString().slice(0, 19).replace("T", " ") },
          { header: "Who", cell: (event) => event.actorLabel },
          { header: "Action", cell: (event) => <code>{event.action}</code> },
          {
            header: "Target",
            cell: (event) => (
              <>
                {event.targetType} <code className="break-all">{event.targetId}</code>
              </>
            ),
          },
          { header: "Details", cell: (event) => <code className="break-all text-xs">{event.details ? JSON.stringify(event.details) : ""}</code> },
        ]}
      />
    </div>
  );
}
