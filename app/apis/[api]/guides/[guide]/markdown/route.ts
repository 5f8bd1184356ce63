import { guideMarkdownResponse } from "@/lib/catalog/guide-response";
import { db } from "@/lib/db";

export const dynamic = "force-dynamic";

/** `/apis/{api}/guides/{guide}.md`, rewritten here by next.config.mjs. */
export async function GET(request: Request, { params }: { params: Promise<{ api: string; guide: string }> }) {
  const { api, guide } = await params;
  return guideMarkdownResponse({ db: db(), request, slug: api, guideSlug: guide });
}
