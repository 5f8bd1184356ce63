import { brandAssetResponse } from "@/lib/branding/brand-asset";
import { config } from "@/lib/config";

export const dynamic = "force-dynamic";

/** Browsers and feed readers that never read a page ask here: the same icon as /branding/favicon. */
export function GET(request: Request): Promise<Response> {
  return brandAssetResponse(config().brand, "favicon", request);
}
