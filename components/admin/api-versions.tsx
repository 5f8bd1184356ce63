import { AdminAction } from "@/components/admin/admin-action";
import { AdminForm } from "@/components/admin/admin-form";
import { DataTable } from "@/components/data-table";
import type { ListedVersion } from "@/lib/api-lifecycle/versions";

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : "—");

/** An API's versions with their status and dates, and the forms that deprecate and retire them. */
export function ApiVersions({ slug, versions }: { slug: string; versions: ListedVersion[] }) {
  const open = versions.filter((version) => version.status !== "retired");
  return (
    <section aria-labelledby="api-versions" className="space-y-4">
      <h2 id="api-versions" className="text-xl font-semibold">
        Versions
      </h2>
      <p className="text-sm text-slate-700">
        {`Each version is served at /gw/{environment}/${slug}/{version}/... Before its sunset, every answer of a deprecated version or operation carries Deprecation, Sunset and Link headers; after it, and once retired, calls answer 410.`}
      </p>
      <DataTable
        caption={`Versions of ${slug}`}
        rows={versions}
        rowKey={(version) => version.id}
        columns={[
          { header: "Version", rowHeader: true, className: "font-mono", cell: (version) => version.version },
          { header: "Status", cell: (version) => version.status },
          { header: "Released", cell: (version) => day(version.releasedAt) },
          {
            header: "Deprecated",
            cell: (version) => (version.status === "deprecated" || version.status === "retired" ? day(version.deprecatedAt) : "—"),
          },
          { header: "Sunset", cell: (version) => day(version.sunsetAt) },
          {
            header: "Deprecated operations",
            cell: (version) =>
              version.operationDeprecations.length === 0 ? (
                "—"
              ) : (
                <ul>
                  {version.operationDeprecations.map((operation) => (
                    <li key={operation.id} className="font-mono">
                      {`${operation.method} ${operation.path}`}
                      <span className="font-sans text-slate-700">{` since ${day(operation.deprecatedAt)}${operation.sunsetAt ? `, sunset ${day(operation.sunsetAt)}` : ""}`}</span>
                    </li>
                  ))}
                </ul>
              ),
          },
          {
            header: "Actions",
            hideHeader: true,
            cell: (version) =>
              version.status === "retired" ? null : (
                <AdminAction
                  action={`/api/portal/admin/apis/${slug}/retire`}
                  body={{ version: version.version }}
                  label={`Retire ${version.version}`}
                  confirm={`Retire ${version.version}? Its calls will answer 410 at once.`}
                />
              ),
          },
        ]}
      />
      {open.length > 0 ? (
        <>
          <h3 className="text-lg font-semibold">Deprecate a version or an operation</h3>
          <AdminForm
            action={`/api/portal/admin/apis/${slug}/deprecate`}
            submitLabel="Deprecate"
            successMessage="Deprecated: the gateway announces it within 1 second."
            fields={[
              { name: "version", label: "Version", type: "select", options: open.map((version) => ({ value: version.version, label: version.version })) },
              { name: "operation", label: "Operation (optional)", hint: 'e.g. "GET /v1/orders/{id}"; leave empty to deprecate the whole version' },
              { name: "date", label: "Deprecated from (optional)", hint: "YYYY-MM-DD; today when empty" },
              { name: "sunset", label: "Sunset (optional)", hint: "YYYY-MM-DD; from then on calls answer 410" },
            ]}
          />
        </>
      ) : null}
    </section>
  );
}
