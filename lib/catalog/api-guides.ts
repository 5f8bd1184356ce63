import "server-only";
import { config } from "../config";
import type { Db } from "../db";
import { type CatalogApi, findCatalogApi } from "./catalog-api";
import type { Guide } from "./guides";
import { notificationsGuides } from "./notifications-guides";

/** An API's guides: those the portal writes for a built-in API, then those its registration stores. */
export function apiGuides(api: CatalogApi, publicUrl: string): Guide[] {
  return [...(api.kind === "NOTIFICATIONS" ? notificationsGuides(api, publicUrl) : []), ...api.guides];
}

/** Each API with all its guides, for searching the catalog by them. */
export function withGuides<A extends CatalogApi>(apis: A[], publicUrl: string): (A & { guides: Guide[] })[] {
  return apis.map((api) => ({ ...api, guides: apiGuides(api, publicUrl) }));
}

/** A visible API's guide, with all the API's guides; undefined when either is unknown. */
export async function resolveGuide(db: Db, slug: string, guideSlug: string) {
  const { portalEnvironment, publicUrl } = config();
  const api = await findCatalogApi(db, slug, { pinnedEnvironment: portalEnvironment });
  if (!api) return undefined;
  const guides = apiGuides(api, publicUrl);
  const guide = guides.find((each) => each.slug === guideSlug);
  return guide && { api, guide, guides };
}
