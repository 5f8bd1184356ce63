import { AdminAction } from "@/components/admin/admin-action";
import { AdminForm } from "@/components/admin/admin-form";
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
      <div className="relative overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-slate-300">
              <th scope="col" className="py-2 pr-4">
                Version
              </th>
              <th scope="col" className="py-2 pr-4">
                Status
              </th>
              <th scope="col" className="py-2 pr-4">
                Released
              </th>
              <th scope="col" className="py-2 pr-4">
                Deprecated
              </th>
              <th scope="col" className="py-2 pr-4">
                Sunset
              </th>
              <th scope="col" className="py-2 pr-4">
                Deprecated operations
              </th>
              <th scope="col" className="py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {versions.map((version) => (
              <tr key={version.id} className="border-b border-slate-200 align-top">
                <th scope="row" className="py-2 pr-4 font-mono">
                  {version.version}
                </th>
                <td className="py-2 pr-4">{version.status}</td>
                <td className="py-2 pr-4">{day(version.releasedAt)}</td>
                <td className="py-2 pr-4">{version.status === "deprecated" || version.status === "retired" ? day(version.deprecatedAt) : "—"}</td>
                <td className="py-2 pr-4">{day(version.sunsetAt)}</td>
                <td className="py-2 pr-4">
                  {version.operationDeprecations.length === 0 ? (
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
                  )}
                </td>
                <td className="py-2">
                  {version.status === "retired" ? null : (
                    <AdminAction
                      action={`/api/portal/admin/apis/${slug}/retire`}
                      body={{ version: version.version }}
                      label={`Retire ${version.version}`}
                      confirm={`Retire ${version.version}? Its calls will answer 410 at once.`}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {open.length > 0 ? (
        <>
          <h3 className="text-lg font-semibold">Deprecate a version or an operation</h3>
          <AdminForm
            action={`/api/portal/admin/apis/${slug}/deprecate`}
            submitLabel="Deprecate"
            successMessage="Deprecated: the gateway announces it within 5 seconds."
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
