import type { Metadata } from "next";
import { UsageChart } from "@/components/admin/usage-chart";
import { requireAdmin } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { USAGE_WINDOWS, type UsageBreakdown, type UsageWindow, usageReport } from "@/lib/portal/usage";
import { firstParam, type SearchParams } from "@/lib/http/search-params";

export const metadata: Metadata = { title: "Usage" };
export const dynamic = "force-dynamic";

function Breakdown({ title, rows }: { title: string; rows: UsageBreakdown[] }) {
  return (
    <table className="w-full border-collapse bg-white text-left text-sm">
      <caption className="p-2 text-left font-medium">{title}</caption>
      <thead>
        <tr className="border-b border-slate-300">
          <th scope="col" className="p-2">Name</th>
          <th scope="col" className="p-2">Requests</th>
          <th scope="col" className="p-2">Errors</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={3} className="p-2 text-slate-600">No requests</td>
          </tr>
        ) : (
          rows.map((row) => (
            <tr key={row.key} className="border-b border-slate-200">
              <td className="break-all p-2">{row.label}</td>
              <td className="p-2">{row.requests}</td>
              <td className="p-2">{row.errors}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

export default async function AdminUsagePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireAdmin("/admin/usage");
  const params = await searchParams;
  const query = { api: firstParam(params.api, 100), environment: firstParam(params.environment, 100), clientId: firstParam(params.clientId, 100) };
  const window: UsageWindow = firstParam(params.window) === "7d" ? "7d" : "24h";
  const [report, apis, environments] = await Promise.all([
    usageReport({ window, api: query.api || undefined, environment: query.environment || undefined, clientId: query.clientId || undefined }),
    db().api.findMany({ orderBy: { name: "asc" }, select: { slug: true, name: true } }),
    db().environment.findMany({ orderBy: { position: "asc" }, select: { slug: true, name: true } }),
  ]);
  const label = (start: Date) => start.toISOString().slice(window === "7d" ? 5 : 11, 16).replace("T", " ");
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Usage</h1>
      <form method="get" className="flex flex-wrap items-end gap-3 text-sm">
        <label className="space-y-1">
          <span className="block font-medium">Period</span>
          <select name="window" defaultValue={window} className="rounded border border-slate-400 px-2 py-1">
            {Object.keys(USAGE_WINDOWS).map((key) => (
              <option key={key} value={key}>
                Last {key}
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
      <p className="text-sm text-slate-700">
        Since {report.since.toISOString().slice(0, 16).replace("T", " ")} UTC, in {report.bucketMinutes / 60}-hour steps.
        {report.sampled ? " Only the newest 200,000 requests are counted." : ""}
      </p>
      <div className="grid gap-4 lg:grid-cols-3">
        <UsageChart title="Requests" unit="requests" points={report.series.map((bucket) => ({ label: label(bucket.start), value: bucket.requests }))} />
        <UsageChart title="Errors (status 400 and above)" unit="errors" points={report.series.map((bucket) => ({ label: label(bucket.start), value: bucket.errors }))} />
        <UsageChart title="Latency, 95th percentile" unit="ms" points={report.series.map((bucket) => ({ label: label(bucket.start), value: bucket.p95LatencyMs }))} />
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <Breakdown title="By API" rows={report.byApi} />
        <Breakdown title="By environment" rows={report.byEnvironment} />
        <Breakdown title="By application" rows={report.byApplication} />
      </div>
    </div>
  );
}
