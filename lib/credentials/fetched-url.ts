import "server-only";
import { config } from "../config";
import { validationProblem } from "../http/problem";
import { checkOutboundUrl, OutboundError } from "../outbound/outbound-request";

/**
 * Refuses a URL the server would fetch (a trusted issuer, a `jwks_uri`) that the outbound policy
 * forbids (https, public addresses, unless OUTBOUND_ALLOW_PRIVATE=1), naming `field`: a
 * developer's URL is checked when given, as a webhook's is; the operator's CLI and file are
 * checked when the URL is fetched.
 */
export async function checkFetchedUrl(url: string, field: string): Promise<void> {
  await checkOutboundUrl(url, { allowPrivate: config().outboundAllowPrivate }).catch((error: unknown) => {
    throw error instanceof OutboundError ? validationProblem([{ in: "body", field, message: error.message }]) : error;
  });
}
