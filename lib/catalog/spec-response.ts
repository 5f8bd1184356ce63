import "server-only";
import { stringify } from "yaml";
import { config } from "../config";
import type { Db } from "../db";
import { problemResponse, toProblem } from "../http/problem";
import { requestIdFrom } from "../http/request-id";
import { log } from "../log";
import { apiDocument } from "./api-document";
import { withoutDeprecatedOperations } from "./catalog-versions";
import { resolveApiView } from "./resolve-api-view";

export type SpecFormat = "json" | "yaml";

const CONTENT_TYPES: Record<SpecFormat, string> = {
  json: "application/json; charset=utf-8",
  yaml: "application/yaml; charset=utf-8",
};

/**
 * `GET /apis/{api}/openapi.{json,yaml}?env=&version=&deprecated=hide`: the version's document (the current one's by default) with
 * that environment's gateway as its server, without its deprecated operations when asked.
 */
export async function specResponse({ db, request, slug, format }: { db: Db; request: Request; slug: string; format: SpecFormat }): Promise<Response> {
  const url = new URL(request.url);
  try {
    const { publicUrl, portalEnvironment } = config();
    const { api, env } = await resolveApiView(
      db,
      slug,
      url.searchParams.get("env") ?? undefined,
      { pinnedEnvironment: portalEnvironment },
      url.searchParams.get("version") ?? undefined,
    );
    const full = apiDocument(api, env, publicUrl);
    const document = url.searchParams.get("deprecated") === "hide" ? withoutDeprecatedOperations(full) : full;
    const body = format === "json" ? JSON.stringify(document, null, 2) : stringify(document);
    return new Response(body, {
      headers: {
        "content-type": CONTENT_TYPES[format],
        "content-disposition": `inline; filename="${api.slug}${api.versionParam ? `-${api.versionParam}` : ""}-${env.slug}.openapi.${format}"`,
        "cache-control": "no-cache",
      },
    });
  } catch (error) {
    const requestId = requestIdFrom(request.headers);
    const problem = toProblem(error);
    if (problem.status >= 500) log.error({ err: error, requestId }, "spec request failed");
    return problemResponse(problem, { instance: url.pathname, requestId });
  }
}
