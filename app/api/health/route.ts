import { db } from "@/lib/db";
import { healthResponse } from "@/lib/health";

export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return healthResponse(() => db().$queryRawUnsafe("SELECT 1"), request);
}
