import { CREDENTIAL_TYPE_LABELS } from "@/lib/catalog/catalog-filter";
import type { CatalogApi, CatalogEnvironment } from "@/lib/catalog/catalog-api";
import { type Guide, guideHref } from "@/lib/catalog/guides";
import Link from "next/link";
import { Markdown } from "@/components/markdown";
import { formatLongDate } from "./format-date";
import type { VersionDocument } from "@/lib/api-lifecycle/version-changes";
import { ApiChanges } from "./api-changes";
import { SpecLinks } from "./spec-links";

type Props = { api: CatalogApi; env: CatalogEnvironment; guides: Guide[]; versionDocuments: VersionDocument[] };

export function OverviewTab({ api, env, guides, versionDocuments }: Props) {
  const shown = api.shownVersion;
  return (
    <div className="grid gap-8 lg:grid-cols-[2fr_1fr]">
      <div className="min-w-0 space-y-8">
        <section aria-labelledby="overview-description" className="space-y-2">
          <h2 id="overview-description" className="text-xl font-semibold">
            Description
          </h2>
          <Markdown source={api.description} />
        </section>
        {guides.length > 0 && (
          <section aria-labelledby="overview-guides" className="space-y-2">
            <h2 id="overview-guides" className="text-xl font-semibold">
              Guides
            </h2>
            <ul className="space-y-1">
              {guides.map((guide) => (
                <li key={guide.slug}>
                  <Link href={guideHref(api.slug, guide.slug)} className="text-blue-800 underline">
                    {guide.title}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        )}
        {api.scopes.length > 0 && (
          <section aria-labelledby="overview-scopes" className="space-y-2">
            <h2 id="overview-scopes" className="text-xl font-semibold">
              Scopes
            </h2>
            <ul className="space-y-1">
              {api.scopes.map((scope) => (
                <li key={scope.name}>
                  <code className="font-mono text-sm">{scope.name}</code>: {scope.description}
                </li>
              ))}
            </ul>
          </section>
        )}
        <section aria-labelledby="overview-changelog" className="space-y-2">
          <h2 id="overview-changelog" className="text-xl font-semibold">
            Changelog
          </h2>
          {api.changelog.length === 0 ? (
            <p className="text-slate-700">No releases recorded yet.</p>
          ) : (
            <ol className="space-y-3">
              {api.changelog.map((entry) => (
                <li key={`${entry.version}-${entry.date}`} className="rounded-md border border-slate-200 bg-white p-3">
                  <h3 className="font-semibold">
                    {entry.version} <span className="font-normal text-slate-700">· {formatLongDate(entry.date)}</span>
                  </h3>
                  <Markdown source={entry.notes} className="mt-1" />
                </li>
              ))}
            </ol>
          )}
        </section>
        <ApiChanges versions={versionDocuments} />
      </div>
      <aside aria-labelledby="overview-facts" className="min-w-0 space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="overview-facts" className="text-lg font-semibold">
          At a glance
        </h2>
        <dl className="space-y-3 text-sm">
          <div>
            <dt className="font-medium text-slate-600">Version</dt>
            <dd>{api.version}</dd>
          </div>
          {api.releasedAt && (
            <div>
              <dt className="font-medium text-slate-600">Released</dt>
              <dd>{formatLongDate(api.releasedAt)}</dd>
            </div>
          )}
          {shown && api.versions.length > 1 && (
            <div>
              <dt className="font-medium text-slate-600">Version in the path</dt>
              <dd>
                <code className="font-mono">{`/${shown.version}/…`}</code> ({shown.status})
              </dd>
            </div>
          )}
          {shown && (shown.status === "deprecated" || shown.status === "retired") && shown.deprecatedAt && (
            <div>
              <dt className="font-medium text-slate-600">Deprecated</dt>
              <dd>{formatLongDate(shown.deprecatedAt)}</dd>
            </div>
          )}
          {shown?.sunsetAt && (
            <div>
              <dt className="font-medium text-slate-600">Sunset</dt>
              <dd>{formatLongDate(shown.sunsetAt)}</dd>
            </div>
          )}
          <div>
            <dt className="font-medium text-slate-600">Access</dt>
            <dd>{api.isPublic ? "Public: no access token needed" : "Protected: send a bearer access token"}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Environments and credential types</dt>
            <dd>
              <ul className="mt-1 space-y-1">
                {api.environments.map((item) => (
                  <li key={item.slug}>
                    {item.name} <span className="text-slate-600">({CREDENTIAL_TYPE_LABELS[item.credentialType]})</span>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        </dl>
        <SpecLinks slug={api.slug} env={env} version={api.versionParam} />
      </aside>
    </div>
  );
}
