import type { CatalogEnvironment } from "@/lib/catalog/catalog-api";

/** Plain links (not client-side navigations): these are documents to download. */
export function SpecLinks({ slug, env }: { slug: string; env: CatalogEnvironment }) {
  const query = `?env=${encodeURIComponent(env.slug)}`;
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
