import "server-only";
import { db } from "../db";
import { problem, problemResponse, toProblem } from "../http/problem";
import { requestIdFrom } from "../http/request-id";
import { log } from "../log";
import { handleSecretScanningReport } from "./secret-scanning";

/** GitHub sends up to 1,000 tokens a report. */
const MAX_REPORT_BYTES = 1_000_000;

/** `POST /api/secret-scanning`: GitHub's partner report in, the labels out; every refusal problem+json. */
export async function serveSecretScanningReport(request: Request): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  try {
    if (Number(request.headers.get("content-length") ?? 0) > MAX_REPORT_BYTES) throw problem("payload-too-large", { detail: "A report holds at most 1 MB." });
    const body = Buffer.from(await request.arrayBuffer());
    if (body.length > MAX_REPORT_BYTES) throw problem("payload-too-large", { detail: "A report holds at most 1 MB." });
    const answers = await handleSecretScanningReport({
      db: db(),
      body,
      keyIdentifier: request.headers.get("github-public-key-identifier"),
      signature: request.headers.get("github-public-key-signature"),
    });
    return Response.json(answers, { headers: { "cache-control": "no-store", "x-request-id": requestId } });
  } catch (error) {
    const refusal = toProblem(error);
    if (refusal.status >= 500) log.error({ err: error, requestId }, "secret scanning report failed");
    return problemResponse(refusal, { instance: "/api/secret-scanning", requestId });
  }
}
