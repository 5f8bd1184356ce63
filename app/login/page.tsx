import type { Metadata } from "next";
import { Link } from "@/components/link";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { currentUser } from "@/lib/auth/session";
import { landingPath, safeReturnPath } from "@/lib/auth/return-path";
import { config } from "@/lib/config";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const returnTo = params.callbackUrl === undefined ? undefined : safeReturnPath(params.callbackUrl);
  const user = await currentUser();
  if (user) redirect(returnTo ?? landingPath(user.role));
  const error = typeof params.error === "string" ? params.error : undefined;
  return (
    <div className="mx-auto max-w-sm space-y-6">
      <h1 className="text-2xl font-bold">Sign in</h1>
      {/* Without a return path the form comes back here once signed in, and the redirect above picks the landing page by role. */}
      <LoginForm returnTo={returnTo ?? "/login"} globalSso={Boolean(config().oidc)} initialError={error} />
      {config().signup === "closed" ? null : (
        <p className="text-sm text-slate-700">
          No account yet?{" "}
          <Link href="/signup" className="text-blue-700 underline">
            Sign up
          </Link>
        </p>
      )}
    </div>
  );
}
