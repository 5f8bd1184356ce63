import { withGuides } from "@/lib/catalog/api-guides";
import { listCatalogApis } from "@/lib/catalog/catalog-api";
import { llmsTxt } from "@/lib/catalog/llms-txt";
import { config } from "@/lib/config";
import { db } from "@/lib/db";

export const dynamic = "force-dynamic";

export async function GET() {
  const { portalEnvironment, publicUrl, brand } = config();
  const apis = withGuides(await listCatalogApis(db(), { pinnedEnvironment: portalEnvironment }), publicUrl);
  return new Response(llmsTxt({ apis, publicUrl, portalName: brand.name }), {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" },
  });
}
