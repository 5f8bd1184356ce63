import type { CatalogEnvironment } from "@/lib/catalog/catalog-api";

/** `?env=` and, for a version other than the default, `&version=`: the document the page shows. */
export function specQuery(env: CatalogEnvironment, version: string | undefined, hideDeprecated = false): string {
  return `?env=${encodeURIComponent(env.slug)}${version ? `&version=${encodeURIComponent(version)}` : ""}${hideDeprecated ? "&deprecated=hide" : ""}`;
}

/** Plain links (not client-side navigations): these are documents to download. */
export function SpecLinks({ slug, env, version }: { slug: string; env: CatalogEnvironment; version?: string }) {
  const query = specQuery(env, version);
  return (
    <p className="text-sm text-slate-700">
      OpenAPI document for {env.name}:{" "}
      <a href={`/apis/${slug}/openapi.json${query}`} className="text-blue-800 underline">
        JSON
      </a>{" "}
      ·{" "}
      <a href={`/apis/${slug}/openapi.yaml${query}`} className="text-blue-800 underline">
        YAML
      </a>
    </p>
  );
}
