import type { Metadata } from "next";
import { Link } from "@/components/link";
import { redirect } from "next/navigation";
import { SignupForm } from "@/components/auth/signup-form";
import { currentUser } from "@/lib/auth/session";
import { config } from "@/lib/config";
import { PASSWORD_MIN_LENGTH } from "@/lib/password-policy";

export const metadata: Metadata = { title: "Sign up" };
export const dynamic = "force-dynamic";

export default async function SignupPage() {
  if (await currentUser()) redirect("/settings");
  const mode = config().signup;
  return (
    <div className="mx-auto max-w-sm space-y-6">
      <h1 className="text-2xl font-bold">Sign up</h1>
      {mode === "closed" ? (
        <p className="text-slate-800">
          Sign-up is closed on this portal. Ask an administrator for an account, or{" "}
          <Link href="/contact" className="text-blue-700 underline">
            contact us
          </Link>
          .
        </p>
      ) : (
        <>
          <p className="text-slate-800">
            {mode === "approval"
              ? "An administrator reviews each new developer account before it can sign in."
              : "Create a developer account and sign in right away."}
          </p>
          <SignupForm passwordMinLength={PASSWORD_MIN_LENGTH} />
        </>
      )}
      <p className="text-sm text-slate-700">
        Have an account?{" "}
        <Link href="/login" className="text-blue-700 underline">
          Sign in
        </Link>
      </p>
    </div>
  );
}
