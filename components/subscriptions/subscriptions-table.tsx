import { DataTable } from "@/components/data-table";
import type { SubscriptionSummary } from "@/lib/subscriptions/list-subscriptions";

/** Subscriptions with the quota used and left in their current period: Settings → Usage, and the console's Usage by plan. */
export function SubscriptionsTable({ subscriptions, caption }: { subscriptions: SubscriptionSummary[]; caption: string }) {
  return (
    <DataTable
      caption={caption}
      rows={subscriptions}
      rowKey={(row) => row.id}
      minWidth="48rem"
      empty="No subscriptions."
      columns={[
        { header: "Application", cell: (row) => row.application, rowHeader: true },
        { header: "Environment", cell: (row) => row.environment },
        { header: "API", cell: (row) => row.api },
        { header: "Plan", cell: (row) => (row.pending ? `${row.plan} (${row.pending.plan} requested)` : row.plan) },
        { header: "Used", cell: (row) => row.usage.used.toLocaleString("en") },
        {
          header: "Remaining",
          cell: (row) => `${row.usage.remaining.toLocaleString("en")} of ${row.quota.requests.toLocaleString("en")} per ${row.quota.period}`,
        },
        { header: "Resets", cell: (row) => `${row.usage.periodEnd.slice(0, 16).replace("T", " ")} UTC` },
      ]}
    />
  );
}
