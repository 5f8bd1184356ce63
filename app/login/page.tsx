import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { currentUser } from "@/lib/auth/session";
import { safeReturnPath } from "@/lib/auth/return-path";
import { config } from "@/lib/config";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const returnTo = safeReturnPath(params.callbackUrl);
  if (await currentUser()) redirect(returnTo);
  const error = typeof params.error === "string" ? params.error : undefined;
  return (
    <div className="mx-auto max-w-sm space-y-6">
      <h1 className="text-2xl font-bold">Sign in</h1>
      <LoginForm returnTo={returnTo} globalSso={Boolean(config().oidc)} initialError={error} />
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
