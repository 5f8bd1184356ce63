import { brandAssetResponse } from "@/lib/branding/brand-asset";
import { config } from "@/lib/config";

export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return brandAssetResponse(config().brand, "logo", request);
}
