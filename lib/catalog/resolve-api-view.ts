import "server-only";
import type { Db } from "../db";
import { ProblemError } from "../http/problem";
import { type CatalogApi, type CatalogEnvironment, type CatalogScope, findCatalogApi } from "./catalog-api";
import { selectEnvironment } from "./environment-urls";

export type ApiView = { api: CatalogApi; env: CatalogEnvironment };

/** An API and the environment it is viewed in; 404 problems name what is unknown. */
export async function resolveApiView(db: Db, slug: string, envSlug: string | undefined, scope: CatalogScope): Promise<ApiView> {
  const api = await findCatalogApi(db, slug, scope);
  if (!api) throw new ProblemError(404, "not-found", "Not Found", { detail: `There is no API "${slug}".` });
  const env = selectEnvironment(api.environments, envSlug);
  if (!env) {
    throw new ProblemError(404, "not-found", "Not Found", {
      detail: `The API "${slug}" is not available in an environment "${envSlug}".`,
    });
  }
  return { api, env };
}
