import { getToken } from "next-auth/jwt";
import { type NextRequest, NextResponse } from "next/server";
import { CALLBACK_URL_COOKIES, safeRedirectUrl } from "./lib/auth/return-path";
import { brandImageOrigin } from "./lib/brand-image";
import { separateGatewayOrigin } from "./lib/catalog/environment-urls";
import { config as appConfig } from "./lib/config";
import { contentSecurityPolicy, newNonce, securityHeaders } from "./lib/http/security-headers";
import { consentRedirectOrigin } from "./lib/oauth/agent-redirect-uris";

const SIGNED_IN_AREAS = /^\/(admin|settings)(\/|$)/;

/**
 * next-auth refuses a callbackUrl (query or cookie) it cannot parse with a 500
 * "server configuration" error, before any callback of ours runs; it gets the
 * same-origin fallback instead.
 */
function repairCallbackUrls(request: NextRequest): URL | undefined {
  const baseUrl = appConfig().publicUrl;
  for (const name of CALLBACK_URL_COOKIES) {
    const value = request.cookies.get(name)?.value;
    if (value !== undefined) request.cookies.set(name, safeRedirectUrl(value, baseUrl));
  }
  const callbackUrl = request.nextUrl.searchParams.get("callbackUrl");
  if (callbackUrl === null) return undefined;
  const url = request.nextUrl.clone();
  url.searchParams.set("callbackUrl", safeRedirectUrl(callbackUrl, baseUrl));
  return url;
}

function htmlText(text: string): string {
  return text.replace(/[&<>]/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * First gate for signed-in areas: no session goes to the sign-in page, a
 * developer gets 403 at /admin. Pages and routes check again against the database.
 */
async function signedInGate(request: NextRequest): Promise<NextResponse | undefined> {
  const { pathname, search } = request.nextUrl;
  if (!SIGNED_IN_AREAS.test(pathname)) return undefined;
  const token = await getToken({ req: request, secret: appConfig().authSecret, secureCookie: appConfig().publicUrl.startsWith("https://") });
  if (!token) {
    const login = new URL("/login", appConfig().publicUrl);
    login.searchParams.set("callbackUrl", `${pathname}${search}`);
    return NextResponse.redirect(login);
  }
  if (pathname.startsWith("/admin") && token.role !== "ADMIN") {
    return new NextResponse(
      `<!doctype html><html lang="en"><head><title>Forbidden · ${htmlText(appConfig().brand.name)}</title></head><body><main><h1>403 Forbidden</h1><p>The admin console is for administrators. <a href="/">Back to the portal</a></p></main></body></html>`,
      { status: 403, headers: { "content-type": "text/html; charset=utf-8" } },
    );
  }
  return undefined;
}

/**
 * Every portal response gets the security headers and a CSP with a fresh
 * nonce; Next reads the nonce from the request's CSP header and puts it on
 * the scripts it renders.
 */
export async function proxy(request: NextRequest) {
  const https = appConfig().publicUrl.startsWith("https://");
  const { brand } = appConfig();
  const imageOrigins = [brandImageOrigin(brand.logo), brandImageOrigin(brand.favicon)].filter((origin) => origin !== undefined);
  const gatewayOrigin = separateGatewayOrigin(appConfig().publicUrl);
  const agentOrigin = consentRedirectOrigin(request.nextUrl.pathname, request.nextUrl.searchParams);
  const csp = contentSecurityPolicy(newNonce(), {
    development: process.env.NODE_ENV === "development",
    https,
    imageOrigins,
    connectOrigins: gatewayOrigin ? [gatewayOrigin] : [],
    formOrigins: agentOrigin ? [agentOrigin] : [],
  });
  const rewrite = request.nextUrl.pathname.startsWith("/api/auth/") ? repairCallbackUrls(request) : undefined;
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", csp);
  const response =
    (await signedInGate(request)) ??
    (rewrite ? NextResponse.rewrite(rewrite, { request: { headers: requestHeaders } }) : NextResponse.next({ request: { headers: requestHeaders } }));
  for (const [name, value] of Object.entries(securityHeaders({ https }))) response.headers.set(name, value);
  response.headers.set("content-security-policy", csp);
  return response;
}

// Everything Next serves except its immutable build assets; /gw/* never reaches Next behind server.ts.
export const config = { matcher: ["/((?!_next/static|_next/image).*)"] };
