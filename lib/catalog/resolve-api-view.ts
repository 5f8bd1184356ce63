import "server-only";
import type { Db } from "../db";
import { problem } from "../http/problem";
import { type CatalogApi, type CatalogEnvironment, type CatalogScope, findCatalogApi } from "./catalog-api";
import { selectEnvironment } from "./environment-urls";

export type ApiView = { api: CatalogApi; env: CatalogEnvironment };

/** An API (at `version`, when given) and the environment it is viewed in; 404 problems name what is unknown. */
export async function resolveApiView(db: Db, slug: string, envSlug: string | undefined, scope: CatalogScope, version?: string): Promise<ApiView> {
  const api = await findCatalogApi(db, slug, scope, version);
  if (!api) throw problem("not-found", { detail: `There is no API "${slug}".` });
  if (version !== undefined && !api.versions.some((candidate) => candidate.version === version)) {
    throw problem("not-found", { detail: `The API "${slug}" has no version "${version}"; it has ${api.versions.map((known) => known.version).join(", ")}.` });
  }
  const env = selectEnvironment(api.environments, envSlug);
  if (!env) {
    throw problem("not-found", {
      detail: `The API "${slug}" is not available in an environment "${envSlug}".`,
    });
  }
  return { api, env };
}
