import { Link } from "@/components/link";
import { formatLongDate } from "@/components/api-page/format-date";
import { DataTable } from "@/components/data-table";
import { CalledOperations } from "@/components/usage/deprecated-calls";
import type { Caller } from "@/lib/api-lifecycle/deprecated-calls";
import { type Deprecation, deprecationName, subjectKey, utcMinute } from "@/lib/api-lifecycle/deprecation-usage";

type Props = { deprecation: Deprecation; callers: Caller[]; notice: { sentAt: Date; clientCount: number } | null; days: number };

/** One deprecated version or operation and who still calls it: the admin console's Deprecations page. */
export function DeprecationCallers({ deprecation, callers, notice, days }: Props) {
  const id = `deprecation-${subjectKey(deprecation.subject).replace(":", "-")}`;
  return (
    <section aria-labelledby={id} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={id} className="text-lg font-semibold">
        {deprecationName(deprecation)}
      </h2>
      <p className="text-sm text-slate-700">
        {deprecation.deprecatedAt ? `Deprecated ${formatLongDate(deprecation.deprecatedAt)}` : "Deprecated"}
        {" · "}
        {deprecation.sunsetAt ? `Sunset ${formatLongDate(deprecation.sunsetAt)}` : "No sunset date"}
        {" · "}
        {notice ? `Notice sent ${utcMinute(notice.sentAt)} to ${notice.clientCount} ${notice.clientCount === 1 ? "client" : "clients"}` : "No notice sent"}
      </p>
      {callers.length === 0 ? (
        <p className="text-sm text-slate-700">No client called it in the last {days} days.</p>
      ) : (
        <DataTable
          caption={`Clients that called ${deprecationName(deprecation)} in the last ${days} days`}
          rows={callers}
          rowKey={(caller) => `${caller.environment} ${caller.clientId}`}
          columns={[
            {
              header: "Client ID",
              cell: (caller) => (
                <Link href={`/admin/credentials/${caller.clientId}`} className="break-all font-mono underline">
                  {caller.clientId}
                </Link>
              ),
            },
            { header: "Application", cell: (caller) => caller.application ?? "Deleted" },
            { header: "Owner", cell: (caller) => caller.owner ?? "No owner" },
            { header: "Environment", cell: (caller) => caller.environment },
            { header: "Calls", cell: (caller) => caller.count },
            { header: "Last call", cell: (caller) => utcMinute(caller.lastCalledAt) },
            { header: "Operations", cell: (caller) => <CalledOperations operations={caller.operations} /> },
          ]}
        />
      )}
    </section>
  );
}
