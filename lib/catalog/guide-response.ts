import "server-only";
import type { Db } from "../db";
import { problem, problemResponse, toProblem } from "../http/problem";
import { requestIdFrom } from "../http/request-id";
import { log } from "../log";
import { resolveGuide } from "./api-guides";
import { guideDocument } from "./guides";

/** `GET /apis/{api}/guides/{guide}.md`: the guide as one Markdown document. */
export async function guideMarkdownResponse({
  db,
  request,
  slug,
  guideSlug,
}: {
  db: Db;
  request: Request;
  slug: string;
  guideSlug: string;
}): Promise<Response> {
  try {
    const found = await resolveGuide(db, slug, guideSlug);
    if (!found) throw problem("not-found", { detail: `The API "${slug}" has no guide "${guideSlug}".` });
    return new Response(guideDocument(found.guide), {
      headers: { "content-type": "text/markdown; charset=utf-8", "cache-control": "no-cache" },
    });
  } catch (error) {
    const requestId = requestIdFrom(request.headers);
    const answer = toProblem(error);
    if (answer.status >= 500) log.error({ err: error, requestId }, "guide request failed");
    return problemResponse(answer, { instance: `/apis/${slug}/guides/${guideSlug}.md`, requestId });
  }
}
