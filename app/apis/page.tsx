import type { Metadata } from "next";
import { ApiCard } from "@/components/catalog/api-card";
import { CatalogFilters } from "@/components/catalog/catalog-filters";
import { listCatalogApis } from "@/lib/catalog/catalog-api";
import { withGuides } from "@/lib/catalog/api-guides";
import { catalogFilterSchema, filterCatalog, matchingGuides, matchingOperations } from "@/lib/catalog/catalog-filter";
import { withOperations } from "@/lib/catalog/catalog-operations";
import type { CatalogListing } from "@/lib/catalog/catalog-listing";
import { managementListing } from "@/lib/management-api/management-listing";
import { config } from "@/lib/config";
import { db } from "@/lib/db";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "API catalog" };

export default async function CatalogPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const filter = catalogFilterSchema.parse(await searchParams);
  const { portalEnvironment, publicUrl, brand } = config();
  const apis: CatalogListing[] = [
    ...withGuides(withOperations(await listCatalogApis(db(), { pinnedEnvironment: portalEnvironment }), publicUrl), publicUrl),
    managementListing(publicUrl),
  ].sort((a, b) => a.name.localeCompare(b.name));
  const environments = [...new Map(apis.flatMap((api) => api.environments).map((env) => [env.slug, env])).values()];
  const shown = filterCatalog(apis, filter);
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold tracking-tight">API catalog</h1>
        <p className="max-w-2xl text-slate-700">
          Every API you can call through the {brand.name} gateway. Open one to read its reference, try it out and learn how to get credentials for it.
        </p>
      </div>
      <CatalogFilters filter={filter} environments={environments} />
      <p className="text-sm text-slate-700" role="status">
        {shown.length === 1 ? "1 API" : `${shown.length} APIs`}
        {shown.length < apis.length ? ` of ${apis.length}` : ""}
      </p>
      {shown.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-700">
          No API matches these filters. Try other words or clear the filters.
        </p>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {shown.map((api) => (
            <li key={api.slug} className="flex">
              <ApiCard api={api} matchingOperations={matchingOperations(api.operations, filter.q)} matchingGuides={matchingGuides(api.guides, filter.q)} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
