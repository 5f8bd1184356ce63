import { pingDatabase } from "@/lib/database/ping";
import { db } from "@/lib/db";
import { healthResponse } from "@/lib/health";

export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return healthResponse(() => pingDatabase(db()), request);
}
