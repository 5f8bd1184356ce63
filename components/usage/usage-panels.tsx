import type { UsageReport } from "@/lib/usage/usage-report";
import { ProblemTypeLink } from "./problem-type-link";
import { UsageChart } from "./usage-chart";

const CELL = "p-2";

function percent(part: number, whole: number): string {
  return whole === 0 ? "0%" : `${Math.round((part / whole) * 1000) / 10}%`;
}

function bucketLabel(report: UsageReport, start: Date): string {
  const iso = start.toISOString();
  return report.bucketHours >= 24 ? iso.slice(0, 10) : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}

/** Totals, charts, the error rate by problem type, and the busiest operations: the same on Settings → Usage and in the admin console. */
export function UsagePanels({ report }: { report: UsageReport }) {
  const step = report.bucketHours >= 24 ? "day" : "hour";
  const points = (value: (point: UsageReport["series"][number]) => number, secondary?: (point: UsageReport["series"][number]) => number) =>
    report.series.map((point) => ({ label: bucketLabel(report, point.start), value: value(point), secondary: secondary?.(point) }));
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
          ["Requests", String(report.totals.requests)],
          ["Error rate", percent(report.totals.errors, report.totals.requests)],
          ["Latency p50", `${report.totals.p50Ms ?? 0} ms`],
          ["Latency p95", `${report.totals.p95Ms ?? 0} ms`],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="text-xl font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="grid gap-4 lg:grid-cols-3">
        <UsageChart title={`Requests per ${step}`} unit="requests" points={points((point) => point.requests)} />
        <UsageChart title={`Error rate per ${step}`} unit="%" points={points((point) => (point.requests ? (point.errors / point.requests) * 100 : 0))} />
        <UsageChart
          title="Latency p95"
          unit="ms"
          points={points(
            (point) => point.p95Ms ?? 0,
            (point) => point.p50Ms ?? 0,
          )}
          secondaryName="p50"
        />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="overflow-x-auto">
          <table className="w-full border-collapse bg-white text-left text-sm">
            <caption className="p-2 text-left font-medium">Error rate by problem type</caption>
            <thead>
              <tr className="border-b border-slate-300">
                <th scope="col" className={CELL}>
                  Problem type
                </th>
                <th scope="col" className={CELL}>
                  Status
                </th>
                <th scope="col" className={CELL}>
                  Requests
                </th>
                <th scope="col" className={CELL}>
                  Share of all
                </th>
              </tr>
            </thead>
            <tbody>
              {report.byProblem.length === 0 ? (
                <tr>
                  <td colSpan={4} className={`${CELL} text-slate-600`}>
                    No errors
                  </td>
                </tr>
              ) : (
                report.byProblem.map((row) => (
                  <tr key={`${row.problem}:${row.status}`} className="border-b border-slate-200">
                    <td className={CELL}>{row.problem ? <ProblemTypeLink code={row.problem} /> : "upstream answer"}</td>
                    <td className={CELL}>{row.status}</td>
                    <td className={CELL}>{row.requests}</td>
                    <td className={CELL}>
                      <span className="flex items-center gap-2">
                        <svg viewBox="0 0 100 8" preserveAspectRatio="none" className="h-2 w-16 shrink-0 bg-slate-100" aria-hidden="true">
                          <rect width={(row.requests / worstProblem) * 100} height={8} className="fill-red-700" />
                        </svg>
                        {percent(row.requests, report.totals.requests)}
                      </span>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        <div className="overflow-x-auto">
          <table className="w-full border-collapse bg-white text-left text-sm">
            <caption className="p-2 text-left font-medium">Top operations</caption>
            <thead>
              <tr className="border-b border-slate-300">
                <th scope="col" className={CELL}>
                  Operation
                </th>
                <th scope="col" className={CELL}>
                  Requests
                </th>
                <th scope="col" className={CELL}>
                  Errors
                </th>
                <th scope="col" className={CELL}>
                  p95
                </th>
              </tr>
            </thead>
            <tbody>
              {report.topOperations.length === 0 ? (
                <tr>
                  <td colSpan={4} className={`${CELL} text-slate-600`}>
                    No requests
                  </td>
                </tr>
              ) : (
                report.topOperations.map((operation) => (
                  <tr key={operation.key} className="border-b border-slate-200">
                    <td className={`${CELL} break-all font-mono`}>{`${operation.api} ${operation.method} ${operation.route}`}</td>
                    <td className={CELL}>{operation.requests}</td>
                    <td className={CELL}>{operation.errors}</td>
                    <td className={CELL}>{operation.p95Ms ?? 0} ms</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}
