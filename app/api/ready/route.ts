import { pingDatabase } from "@/lib/database/ping";
import { db } from "@/lib/db";
import { processDependencies, readinessResponse } from "@/lib/readiness";

export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return readinessResponse(
    processDependencies(() => pingDatabase(db())),
    request,
  );
}
