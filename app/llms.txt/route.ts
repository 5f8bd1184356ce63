import { withGuides } from "@/lib/catalog/api-guides";
import { listCatalogApis } from "@/lib/catalog/catalog-api";
import { llmsTxt } from "@/lib/catalog/llms-txt";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { managementListing } from "@/lib/management-api/management-listing";

export const dynamic = "force-dynamic";

export async function GET() {
  const { portalEnvironment, publicUrl, brand } = config();
  const apis = withGuides(await listCatalogApis(db(), { pinnedEnvironment: portalEnvironment }), publicUrl);
  const { name, summary, serverUrl } = managementListing(publicUrl);
  const management = { name, summary, documentUrl: `${serverUrl}/openapi.json` };
  return new Response(llmsTxt({ apis, management, publicUrl, portalName: brand.name }), {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" },
  });
}
