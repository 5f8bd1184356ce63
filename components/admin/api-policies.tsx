import { ApiPoliciesForm } from "@/components/admin/api-policies-form";
import { DataTable } from "@/components/data-table";
import type { ApiPolicies, PolicySet } from "@/lib/gateway/policies/policy-set";

type Row = { appliesTo: string; set: PolicySet; route: boolean };

/** What a row shows of one policy: the route's own, else that the API's applies, else none. */
function shown<Name extends keyof PolicySet>(row: Row, name: Name, summary: (policy: NonNullable<PolicySet[Name]>) => string): string {
  const policy = row.set[name];
  if (policy) return summary(policy);
  return row.route ? "as every route" : "—";
}

/** An API's gateway policies, of every route and of each named route, and the form that edits them. */
export function ApiPoliciesSection({ slug, policies }: { slug: string; policies: ApiPolicies }) {
  const rows: Row[] = [
    { appliesTo: "Every route", set: policies.policies ?? {}, route: false },
    ...Object.entries(policies.routes ?? {}).map(([key, set]) => ({ appliesTo: key, set, route: true })),
  ];
  return (
    <section aria-labelledby="api-policies-title" className="space-y-4">
      <h2 id="api-policies-title" className="text-xl font-semibold">
        Gateway policies
      </h2>
      <p className="text-sm text-slate-700">
        A route&apos;s own policy replaces the API&apos;s policy of the same name. Routes are named by method and path template of an operation of the
        API&apos;s OpenAPI documents.
      </p>
      <DataTable
        caption={`Gateway policies of ${slug}`}
        rows={rows}
        rowKey={(row) => `${row.route}:${row.appliesTo}`}
        columns={[
          { header: "Applies to", rowHeader: true, className: "font-mono break-all", cell: (row) => row.appliesTo },
          {
            header: "Policies",
            // One column of labelled lines rather than one per policy: four columns do not fit a phone's width.
            cell: (row) => (
              <ul className="space-y-1">
                <li>Request validation: {shown(row, "requestValidation", (policy) => policy.mode)}</li>
                <li>Response cache: {shown(row, "responseCache", (policy) => `${policy.ttlSeconds} s${policy.shared ? ", shared" : ""}`)}</li>
                <li>
                  WebSocket:{" "}
                  {shown(
                    row,
                    "websocket",
                    (policy) =>
                      `idle ${policy.idleTimeoutSeconds} s, messages up to ${policy.maxMessageBytes} bytes, ${policy.maxConnectionsPerClient} connections per client`,
                  )}
                </li>
              </ul>
            ),
          },
        ]}
      />
      <ApiPoliciesForm slug={slug} initial={JSON.stringify(policies, null, 2)} />
    </section>
  );
}
