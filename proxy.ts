import { getToken } from "next-auth/jwt";
import { type NextRequest, NextResponse } from "next/server";
import { config as appConfig } from "./lib/config";

/**
 * First gate for signed-in areas: no session goes to the sign-in page, a
 * developer gets 403 at /admin. Pages and routes check again against the database.
 */
export async function proxy(request: NextRequest) {
  const token = await getToken({
    req: request,
    secret: appConfig().authSecret,
    secureCookie: appConfig().publicUrl.startsWith("https://"),
  });
  const { pathname, search } = request.nextUrl;
  if (!token) {
    const login = new URL("/login", appConfig().publicUrl);
    login.searchParams.set("callbackUrl", `${pathname}${search}`);
    return NextResponse.redirect(login);
  }
  if (pathname.startsWith("/admin") && token.role !== "ADMIN") {
    return new NextResponse(
      '<!doctype html><html lang="en"><head><title>Forbidden · Gatehouse</title></head><body><main><h1>403 Forbidden</h1><p>The admin console is for administrators. <a href="/">Back to the portal</a></p></main></body></html>',
      { status: 403, headers: { "content-type": "text/html; charset=utf-8" } },
    );
  }
  return NextResponse.next();
}

export const config = { matcher: ["/admin", "/admin/:path*", "/settings", "/settings/:path*"] };
