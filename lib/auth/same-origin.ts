import "server-only";
import { config } from "../config";
import { problem } from "../http/problem";

/**
 * Cross-site request protection for portal mutations: the browser's Origin
 * (or, without one, Sec-Fetch-Site) must say the request came from our own pages.
 * Session cookies are also SameSite=Lax, so this is the second of two locks.
 */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  const allowed = new Set([config().publicUrl, new URL(request.url).origin]);
  if (origin ? allowed.has(origin) : request.headers.get("sec-fetch-site") === "same-origin") return;
  throw problem("cross-site-request", {
    detail: "Portal changes must come from the portal's own pages (Origin header).",
  });
}
