"use client";

import { type FormEvent, useState } from "react";
import { BUTTON_CLASS, Field, INPUT_CLASS } from "@/components/settings/field";
import { type FieldErrors, portalFetch } from "@/components/settings/portal-fetch";
import { SubmitButton } from "@/components/submit-button";

export function SignupForm({ passwordMinLength }: { passwordMinLength: number }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState("");
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [receipt, setReceipt] = useState("");

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError("");
    const result = await portalFetch<{ message: string }>("/api/portal/signup", "POST", {
      email: String(form.get("email") ?? ""),
      name: String(form.get("name") ?? ""),
      password: String(form.get("password") ?? ""),
    });
    setPending(false);
    if (result.ok) return setReceipt(result.data.message);
    setError(result.message);
    setFieldErrors(result.fieldErrors);
  }

  if (receipt) {
    return (
      <p role="status" className="rounded-lg border border-green-300 bg-green-50 p-4 text-green-950">
        {receipt}
      </p>
    );
  }
  const described = (name: string) => (fieldErrors[name] ? { "aria-invalid": true, "aria-describedby": `signup-${name}-error` } : {});
  return (
    <form onSubmit={submit} className="space-y-4 rounded-lg border border-slate-200 bg-white p-6" noValidate>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <Field id="signup-email" label="Email" error={fieldErrors.email}>
        <input id="signup-email" name="email" type="email" autoComplete="email" required className={INPUT_CLASS} {...described("email")} />
      </Field>
      <Field id="signup-name" label="Name" error={fieldErrors.name}>
        <input id="signup-name" name="name" autoComplete="name" required className={INPUT_CLASS} {...described("name")} />
      </Field>
      <Field id="signup-password" label="Password" hint={`At least ${passwordMinLength} characters.`} error={fieldErrors.password}>
        <input
          id="signup-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={passwordMinLength}
          aria-describedby={fieldErrors.password ? "signup-password-error" : "signup-password-hint"}
          aria-invalid={fieldErrors.password ? true : undefined}
          className={INPUT_CLASS}
        />
      </Field>
      <SubmitButton pending={pending} className={`w-full ${BUTTON_CLASS}`}>
        Sign up
      </SubmitButton>
    </form>
  );
}
