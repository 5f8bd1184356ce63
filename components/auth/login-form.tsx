"use client";

import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { SubmitButton } from "@/components/submit-button";
import { ActionButton } from "@/components/action-button";

const MESSAGES: Record<string, string> = {
  CredentialsSignin: "The email or password is not right.",
  TooManyAttempts: "Too many failed sign-ins. Wait 15 minutes and try again.",
  AwaitingApproval: "Your account is waiting for an administrator's approval.",
  AccessDenied: "This account may not sign in.",
};

function messageFor(code: string): string {
  return MESSAGES[code] ?? "Sign-in failed. Try again.";
}

export function LoginForm({ returnTo, globalSso, initialError }: { returnTo: string; globalSso: boolean; initialError?: string }) {
  const [error, setError] = useState(initialError ? messageFor(initialError) : "");
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError("");
    const result = await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
    });
    setPending(false);
    if (result?.ok && !result.error) window.location.assign(returnTo);
    else setError(messageFor(result?.error ?? ""));
  }

  return (
    <div className="space-y-6">
      <form onSubmit={submit} className="space-y-4 rounded-lg border border-slate-200 bg-white p-6" noValidate>
        <div className="space-y-1">
          <label htmlFor="email" className="block text-sm font-medium">
            Email
          </label>
          <input id="email" name="email" type="email" autoComplete="username" required className="w-full rounded border border-slate-400 px-3 py-2" />
        </div>
        <div className="space-y-1">
          <label htmlFor="password" className="block text-sm font-medium">
            Password
          </label>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            className="w-full rounded border border-slate-400 px-3 py-2"
          />
        </div>
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <SubmitButton pending={pending} className="w-full rounded-md bg-accent px-4 py-2 font-medium text-on-accent hover:bg-accent-hover disabled:opacity-60">
          Sign in
        </SubmitButton>
      </form>
      {globalSso ? (
        <ActionButton
          onClick={() => signIn("global-sso", { callbackUrl: returnTo })}
          className="w-full rounded-md border border-slate-400 bg-white px-4 py-2 font-medium hover:bg-slate-100"
        >
          Sign in with Global SSO
        </ActionButton>
      ) : null}
    </div>
  );
}
