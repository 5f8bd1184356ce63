import Link from "next/link";
import type { CatalogEnvironment } from "@/lib/catalog/catalog-api";
import { CREDENTIAL_TYPE_LABELS, CREDENTIAL_TYPE_PARAMS, type CatalogFilter } from "@/lib/catalog/catalog-filter";

type Props = {
  filter: CatalogFilter;
  /** every environment some API is offered in; no environment filter when there is only one */
  environments: Pick<CatalogEnvironment, "slug" | "name">[];
};

const FIELD = "w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900";

/** A plain GET form: the filters live in the URL and work without JavaScript. */
export function CatalogFilters({ filter, environments }: Props) {
  const active = filter.q !== "" || filter.env !== undefined || filter.type !== undefined || filter.deprecated !== undefined;
  return (
    <form method="get" action="/apis" role="search" aria-label="Filter APIs" className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end">
      <div className="grid gap-1">
        <label htmlFor="catalog-q" className="text-sm font-medium">
          Search APIs
        </label>
        <input id="catalog-q" type="search" name="q" defaultValue={filter.q} placeholder="Name, description or tag" className={FIELD} />
      </div>
      {environments.length > 1 && (
        <div className="grid gap-1">
          <label htmlFor="catalog-env" className="text-sm font-medium">
            Environment
          </label>
          <select id="catalog-env" name="env" defaultValue={filter.env ?? ""} className={FIELD}>
            <option value="">All environments</option>
            {environments.map((env) => (
              <option key={env.slug} value={env.slug}>
                {env.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="grid gap-1">
        <label htmlFor="catalog-type" className="text-sm font-medium">
          Credential type
        </label>
        <select id="catalog-type" name="type" defaultValue={filter.type ?? ""} className={FIELD}>
          <option value="">All credential types</option>
          {Object.entries(CREDENTIAL_TYPE_PARAMS).map(([param, type]) => (
            <option key={param} value={param}>
              {CREDENTIAL_TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      </div>
      <label className="flex items-center gap-2 text-sm sm:col-span-full sm:row-start-2">
        <input type="checkbox" name="deprecated" value="show" defaultChecked={filter.deprecated === "show"} />
        Show deprecated APIs
      </label>
      <div className="flex gap-3">
        <button type="submit" className="rounded-md bg-accent px-4 py-2 font-medium text-on-accent hover:bg-accent-hover">
          Apply
        </button>
        {active && (
          <Link href="/apis" className="self-center text-sm text-blue-800 underline">
            Clear
          </Link>
        )}
      </div>
    </form>
  );
}
