import type { Metadata } from "next";
import { DataTable } from "@/components/data-table";
import { SubscriptionsTable } from "@/components/subscriptions/subscriptions-table";
import { UsagePanels } from "@/components/usage/usage-panels";
import { ValidationFailures } from "@/components/usage/validation-failures";
import { requireAdmin } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { firstParam, type SearchParams } from "@/lib/http/search-params";
import { parseUsageRange, USAGE_RANGES, type UsageCount, usageRangeStart, usageReport } from "@/lib/usage/usage-report";
import { listPlans, listSubscriptions } from "@/lib/subscriptions/list-subscriptions";
import { recentValidationFailures } from "@/lib/usage/validation-failures";

export const metadata: Metadata = { title: "Usage" };
export const dynamic = "force-dynamic";

function Breakdown({ title, rows, label = (key) => key }: { title: string; rows: UsageCount[]; label?: (key: string) => string }) {
  return (
    <DataTable
      caption={title}
      showCaption
      empty="No requests"
      rows={rows}
      rowKey={(row) => row.key}
      columns={[
        { header: "Name", cell: (row) => label(row.key), className: "break-all" },
        { header: "Requests", cell: (row) => row.requests },
        { header: "Errors", cell: (row) => row.errors },
      ]}
    />
  );
}

export default async function AdminUsagePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireAdmin("/admin/usage");
  const params = await searchParams;
  const query = {
    api: firstParam(params.api, 100) || undefined,
    environment: firstParam(params.environment, 100) || undefined,
    clientId: firstParam(params.clientId, 100) || undefined,
  };
  const range = parseUsageRange(firstParam(params.range));
  const scope = { clients: query.clientId ? [query.clientId] : ("all" as const), api: query.api, environment: query.environment };
  const [report, apis, environments, validationFailures] = await Promise.all([
    usageReport(db(), scope, range),
    db().api.findMany({ orderBy: { name: "asc" }, select: { slug: true, name: true } }),
    db().environment.findMany({ orderBy: { position: "asc" }, select: { slug: true, name: true } }),
    recentValidationFailures(db(), scope, usageRangeStart(range)),
  ]);
  const clientIds = report.byClient.map((row) => row.key).filter(Boolean);
  const applications = new Map(
    (clientIds.length > 0
      ? await db().credential.findMany({ where: { clientId: { in: clientIds } }, select: { clientId: true, application: { select: { name: true } } } })
      : []
    ).map((credential) => [credential.clientId, credential.application.name]),
  );
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Usage</h1>
      <form method="get" className="flex flex-wrap items-end gap-3 text-sm">
        <label className="space-y-1">
          <span className="block font-medium">Period</span>
          <select name="range" defaultValue={range} className="rounded border border-slate-400 px-2 py-1">
            {Object.entries(USAGE_RANGES).map(([key, value]) => (
              <option key={key} value={key}>
                {value.label}
              </option>
            ))}
          </select>
        </label>
        <label className="space-y-1">
          <span className="block font-medium">API</span>
          <select name="api" defaultValue={query.api ?? ""} className="rounded border border-slate-400 px-2 py-1">
            <option value="">All</option>
            {apis.map((api) => (
              <option key={api.slug} value={api.slug}>
                {api.name}
              </option>
            ))}
          </select>
        </label>
        <label className="space-y-1">
          <span className="block font-medium">Environment</span>
          <select name="environment" defaultValue={query.environment ?? ""} className="rounded border border-slate-400 px-2 py-1">
            <option value="">All</option>
            {environments.map((env) => (
              <option key={env.slug} value={env.slug}>
                {env.name}
              </option>
            ))}
          </select>
        </label>
        <label className="space-y-1">
          <span className="block font-medium">Client ID</span>
          <input name="clientId" defaultValue={query.clientId ?? ""} className="rounded border border-slate-400 px-2 py-1" />
        </label>
        <button type="submit" className="rounded-md border border-slate-400 bg-white px-3 py-1.5 font-medium">
          Show
        </button>
      </form>
      <UsagePanels report={report} callers="clients" />
      <ValidationFailures failures={validationFailures} callers="clients" />
      <div className="grid gap-4 lg:grid-cols-3">
        <Breakdown title="By API" rows={report.byApi} />
        <Breakdown title="By environment" rows={report.byEnvironment} />
        <Breakdown title="By application" rows={report.byClient} label={(key) => (key ? `${applications.get(key) ?? "unknown"} (${key})` : "anonymous")} />
      </div>
      <QuotasByPlan />
    </div>
  );
}

/** Each plan with its subscriptions' quota use in the current period. */
async function QuotasByPlan() {
  const [plans, subscriptions] = await Promise.all([listPlans({ db: db() }), listSubscriptions({ db: db(), viewer: "operator" })]);
  if (plans.length === 0) return null;
  return (
    <section aria-labelledby="quotas-by-plan" className="space-y-4">
      <h2 id="quotas-by-plan" className="text-lg font-semibold">
        Quotas by plan
      </h2>
      {plans.map((plan) => {
        const ofPlan = subscriptions.filter((subscription) => subscription.plan === plan.slug);
        const used = ofPlan.reduce((sum, subscription) => sum + subscription.usage.used, 0);
        return (
          <SubscriptionsTable
            key={plan.slug}
            subscriptions={ofPlan}
            caption={`${plan.name} (${plan.slug}): ${ofPlan.length} subscription(s), ${used.toLocaleString("en")} requests this ${plan.quota.period} of ${plan.quota.requests.toLocaleString("en")} each`}
          />
        );
      })}
    </section>
  );
}
