import { Link } from "@/components/link";
import type { ReactNode } from "react";
import { type Guide, guideHref } from "@/lib/catalog/guides";
import type { CatalogListing } from "@/lib/catalog/catalog-listing";
import type { Operation } from "@/lib/catalog/operations";
import { AccessBadge, CredentialTypeBadge } from "./badges";

type Props = {
  api: Omit<CatalogListing, "operations" | "guides" | "description">;
  /** under a search, the operations that match it on their own */
  matchingOperations?: Operation[];
  /** under a search, the guides that match it on their own */
  matchingGuides?: Pick<Guide, "slug" | "title">[];
  /** h2 in the catalog; h3 where the cards sit under a section heading */
  headingLevel?: 2 | 3;
  /** what a visitor can do with the API right here, below its details */
  action?: ReactNode;
};

/** An API in the catalog. */
export function ApiCard({ api, matchingOperations = [], matchingGuides = [], headingLevel = 2, action }: Props) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article aria-labelledby={`api-${api.slug}`} className="flex w-full flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <Heading id={`api-${api.slug}`} className="text-lg font-semibold">
          <Link href={`/apis/${api.slug}`} className="text-blue-800 hover:underline">
            {api.name}
          </Link>
        </Heading>
        <AccessBadge isPublic={api.isPublic} />
      </div>
      <p className="text-slate-700">{api.summary}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="font-medium text-slate-600">Version</dt>
        <dd>{api.version}</dd>
        <dt className="font-medium text-slate-600">Credentials</dt>
        <dd className="flex flex-wrap gap-1">{api.authentication ?? api.credentialTypes.map((type) => <CredentialTypeBadge key={type} type={type} />)}</dd>
        <dt className="font-medium text-slate-600">Environments</dt>
        <dd>{api.environments.length > 0 ? api.environments.map((env) => env.name).join(", ") : "None: the portal serves it"}</dd>
      </dl>
      {api.tags.length > 0 && (
        <ul aria-label="Tags" className="flex flex-wrap gap-1 text-xs">
          {api.tags.map((tag) => (
            <li key={tag} className="rounded bg-slate-100 px-2 py-0.5 text-slate-700">
              {tag}
            </li>
          ))}
        </ul>
      )}
      {matchingOperations.length > 0 && (
        <ul aria-label="Matching operations" className="space-y-1 text-sm">
          {matchingOperations.map((operation) => (
            <li key={`${operation.method} ${operation.path}`}>
              <Link href={`/apis/${api.slug}?tab=reference`} className="text-blue-800 hover:underline">
                <span className="font-mono font-semibold">{operation.method}</span> <span className="break-all font-mono">{operation.path}</span>
                {operation.summary ? ` — ${operation.summary}` : ""}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {matchingGuides.length > 0 && (
        <ul aria-label="Matching guides" className="space-y-1 text-sm">
          {matchingGuides.map((guide) => (
            <li key={guide.slug}>
              <Link href={guideHref(api.slug, guide.slug)} className="text-blue-800 hover:underline">
                {guide.title}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {action && <div className="mt-auto pt-1">{action}</div>}
    </article>
  );
}
