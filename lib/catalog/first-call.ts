import "server-only";
import type { Db } from "../db";
import { apiDocument } from "./api-document";
import { type CatalogApi, type CatalogEnvironment, listCatalogApis } from "./catalog-api";
import { apiServerUrl } from "./environment-urls";
import { firstGetOperation, type Operation } from "./operations";

type OpenApiDocument = Record<string, unknown>;

export type FirstCall = { apiName: string; serverUrl: string; operation: Operation };

type Input = { api: CatalogApi; env: CatalogEnvironment; document: OpenApiDocument; publicUrl: string; pinnedEnvironment?: string };

/**
 * The call to show after the token request: a protected API's own first GET;
 * for a token API, the first GET of a protected API the token unlocks there.
 */
export async function findFirstCall(db: Db, { api, env, document, publicUrl, pinnedEnvironment }: Input): Promise<FirstCall | undefined> {
  if (!api.isPublic) {
    const operation = firstGetOperation(document);
    return operation ? { apiName: api.name, serverUrl: apiServerUrl(publicUrl, api, env.slug), operation } : undefined;
  }
  const protectedApis = (await listCatalogApis(db, { pinnedEnvironment })).filter(
    (other) => !other.isPublic && other.environments.some((item) => item.slug === env.slug),
  );
  for (const other of protectedApis) {
    const otherEnv = other.environments.find((item) => item.slug === env.slug)!;
    const operation = firstGetOperation(apiDocument(other, otherEnv, publicUrl));
    if (operation) return { apiName: other.name, serverUrl: apiServerUrl(publicUrl, other, env.slug), operation };
  }
  return undefined;
}
