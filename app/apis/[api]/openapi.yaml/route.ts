import { specResponse } from "@/lib/catalog/spec-response";
import { db } from "@/lib/db";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ api: string }> }) {
  return specResponse({ db: db(), request, slug: (await params).api, format: "yaml" });
}
