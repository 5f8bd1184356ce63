import { specResponse } from "@/lib/catalog/spec-response";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ api: string }> }) {
  return specResponse(request, (await params).api, "json");
}
