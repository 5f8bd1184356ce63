import type { TargetHealth } from "@/lib/upstreams/target-state";
import type { UpstreamHealth } from "@/lib/upstreams/upstream-set";

function state(target: TargetHealth): string {
  if (target.weight === 0) return "Drained (weight 0)";
  if (!target.healthy) return "Failing its health check";
  if (target.ejectedUntil !== null) return `Ejected until ${new Date(target.ejectedUntil).toISOString().slice(11, 19)} UTC`;
  if (target.circuit === "open") return "Circuit open";
  if (target.circuit === "half-open") return "Circuit half-open: one probe call";
  return "Healthy";
}

/** Each environment's targets as the gateway in this server sees them. */
export function UpstreamHealthTable({ health, environments }: { health: UpstreamHealth[]; environments: { slug: string; name: string }[] }) {
  return (
    <section aria-labelledby="upstream-health" className="space-y-3 rounded-lg border border-slate-200 bg-white p-6">
      <h2 id="upstream-health" className="text-lg font-semibold">
        Upstream health
      </h2>
      <p className="text-sm text-slate-600">
        As the gateway in this server sees its targets. Every gateway process keeps its own view and exports it as{" "}
        <code>gatehouse_upstream_target_healthy</code> on <code>/metrics</code>.
      </p>
      {health.length === 0 ? (
        <p className="text-sm text-slate-600">No gateway in this server has loaded this API's upstreams yet.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200">
              <th scope="col" className="py-2 pr-4">
                Environment
              </th>
              <th scope="col" className="py-2 pr-4">
                Target
              </th>
              <th scope="col" className="py-2 pr-4">
                Weight
              </th>
              <th scope="col" className="py-2">
                State
              </th>
            </tr>
          </thead>
          <tbody>
            {health.flatMap((upstream) =>
              upstream.targets.map((target) => (
                <tr key={`${upstream.env} ${target.url}`} className="border-b border-slate-100">
                  <td className="py-2 pr-4">{environments.find((env) => env.slug === upstream.env)?.name ?? upstream.env}</td>
                  <td className="py-2 pr-4 font-mono">{target.url}</td>
                  <td className="py-2 pr-4">{target.weight}</td>
                  <td className="py-2">{state(target)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}
