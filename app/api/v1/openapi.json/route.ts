import { config } from "@/lib/config";
import { managementApiDocument } from "@/lib/management-api/openapi";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json(managementApiDocument({ publicUrl: config().publicUrl }), {
    // As the catalog serves every other API's document (lib/catalog/spec-response.ts).
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-cache" },
  });
}
