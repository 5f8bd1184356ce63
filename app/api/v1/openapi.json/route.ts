import { config } from "@/lib/config";
import { managementApiDocument } from "@/lib/management-api/openapi";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json(managementApiDocument({ publicUrl: config().publicUrl }), { headers: { "cache-control": "no-cache" } });
}
