import { DataTable } from "@/components/data-table";
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
        <DataTable
          caption="Targets by environment"
          rows={health.flatMap((upstream) => upstream.targets.map((target) => ({ env: upstream.env, target })))}
          rowKey={({ env, target }) => `${env} ${target.url}`}
          columns={[
            { header: "Environment", cell: ({ env }) => environments.find((environment) => environment.slug === env)?.name ?? env },
            { header: "Target", cell: ({ target }) => target.url, className: "font-mono" },
            { header: "Weight", cell: ({ target }) => target.weight },
            { header: "State", cell: ({ target }) => state(target) },
          ]}
        />
      )}
    </section>
  );
}
