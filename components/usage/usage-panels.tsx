import { DataTable } from "@/components/data-table";
import { USAGE_RANGES, type UsageReport } from "@/lib/usage/usage-report";
import { ProblemTypeLink } from "./problem-type-link";
import { bucketPeriod, timeTicks } from "./time-axis";
import { UsageChart } from "./usage-chart";

const COUNT = new Intl.NumberFormat("en-US");
const MS = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

function percent(part: number, whole: number): string {
  return whole === 0 ? "0%" : `${Math.round((part / whole) * 1000) / 10}%`;
}

const plural = (count: number, noun: string) => `${COUNT.format(count)} ${noun}${count === 1 ? "" : "s"}`;

/** Milliseconds to a tenth below 10 ms, whole ones above. */
const milliseconds = (ms: number) => `${MS.format(ms < 10 ? ms : Math.round(ms))} ms`;

/** A percentile estimated from the histogram, marked as such. */
const approximately = (ms: number | null) => (ms === null ? "no calls" : `≈ ${milliseconds(ms)}`);

type Point = UsageReport["series"][number];

/**
 * Totals, charts, the error rate by problem type, and the busiest operations: the same on
 * Settings → Usage and in the admin console. `callers` names whose calls these are, for the
 * empty state: "your applications", "clients".
 */
export function UsagePanels({ report, callers }: { report: UsageReport; callers: string }) {
  const period = USAGE_RANGES[report.range].label.toLowerCase();
  if (report.totals.requests === 0) {
    return (
      <div className="rounded-lg border border-dashed border-slate-400 bg-white p-6 text-slate-800">
        <p className="font-medium">No calls in the {period}.</p>
        <p className="text-sm">
          Calls {callers} make through the gateway appear here a few seconds after the gateway answers them: requests, error rate and latency per{" "}
          {report.bucketHours >= 24 ? "day" : "hour"}, failures by problem type and the busiest operations. Reload the page to see them.
        </p>
      </div>
    );
  }
  const step = report.bucketHours >= 24 ? "day" : "hour";
  const ticks = timeTicks(
    report.series.map((point) => point.start),
    report.bucketHours,
  );
  const chart = (value: (point: Point) => number | null, text: (point: Point) => string, secondary?: (point: Point) => number | null) =>
    report.series.map((point) => ({
      period: bucketPeriod(point.start, report.bucketHours),
      value: value(point),
      secondary: secondary?.(point),
      text: text(point),
    }));
  // The bars compare the problem types with each other: the most frequent one spans the bar.
  const worstProblem = Math.max(1, ...report.byProblem.map((row) => row.requests));
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-700">
        Since {report.since.toISOString().slice(0, 16).replace("T", " ")} UTC, per {step}.
        {report.sampled ? " Only the newest 200,000 requests are counted." : ""}
      </p>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {[
          ["Requests", COUNT.format(report.totals.requests)],
          ["Error rate", percent(report.totals.errors, report.totals.requests)],
          ["Latency p50", approximately(report.totals.p50Ms)],
          ["Latency p95", approximately(report.totals.p95Ms)],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="text-xl font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-slate-700">
        Latencies are approximate (≈): each call is counted in a range of latencies (such as 100–200 ms), and a percentile is estimated within the range that
        holds it, never above the slowest call{report.totals.maxMs === null ? "" : `, which took ${milliseconds(report.totals.maxMs)}`}.
      </p>
      <div className="space-y-4">
        <UsageChart
          title={`Requests per ${step}`}
          unit=""
          wholeNumbers
          ticks={ticks}
          points={chart(
            (point) => point.requests || null,
            (point) => (point.errors ? `${plural(point.requests, "request")}, ${COUNT.format(point.errors)} failed` : plural(point.requests, "request")),
          )}
        />
        <UsageChart
          title={`Error rate per ${step}`}
          unit="%"
          ticks={ticks}
          points={chart(
            (point) => (point.requests ? (point.errors / point.requests) * 100 : null),
            (point) => (point.requests ? `${percent(point.errors, point.requests)} of ${plural(point.requests, "request")} failed` : "no calls"),
          )}
        />
        <UsageChart
          title={`Latency per ${step}`}
          unit=" ms"
          ticks={ticks}
          legend="Blue bars: p95; amber line: p50. Both approximate."
          points={chart(
            (point) => point.p95Ms,
            (point) => (point.requests ? `p95 ${approximately(point.p95Ms)}, p50 ${approximately(point.p50Ms)}` : "no calls"),
            (point) => point.p50Ms,
          )}
        />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <DataTable
          caption="Error rate by problem type"
          showCaption
          empty="No errors"
          rows={report.byProblem}
          rowKey={(row) => `${row.problem}:${row.status}`}
          columns={[
            { header: "Problem type", cell: (row) => (row.problem ? <ProblemTypeLink code={row.problem} /> : "upstream answer") },
            { header: "Status", cell: (row) => row.status },
            { header: "Requests", cell: (row) => row.requests },
            {
              header: "Share of all",
              cell: (row) => (
                <span className="flex items-center gap-2">
                  <svg viewBox="0 0 100 8" preserveAspectRatio="none" className="h-2 w-16 shrink-0 bg-slate-100" aria-hidden="true">
                    <rect width={(row.requests / worstProblem) * 100} height={8} className="fill-red-700" />
                  </svg>
                  {percent(row.requests, report.totals.requests)}
                </span>
              ),
            },
          ]}
        />
        <DataTable
          caption="Top operations"
          showCaption
          empty="No requests"
          rows={report.topOperations}
          rowKey={(operation) => operation.key}
          columns={[
            { header: "Operation", cell: (operation) => `${operation.api} ${operation.method} ${operation.route}`, className: "break-all font-mono" },
            { header: "Requests", cell: (operation) => operation.requests },
            { header: "Errors", cell: (operation) => operation.errors },
            { header: "p95", cell: (operation) => approximately(operation.p95Ms) },
          ]}
        />
      </div>
    </div>
  );
}
