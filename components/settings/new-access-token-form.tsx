"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { BUTTON_CLASS, Field, INPUT_CLASS, SECONDARY_BUTTON_CLASS } from "./field";
import { type FieldErrors, portalFetch } from "./portal-fetch";
import { SubmitButton } from "@/components/submit-button";
import { ActionButton } from "@/components/action-button";

const LIFETIME_CHOICES = [7, 30, 90, 365];

type Created = { token: string; accessToken: { id: string; expiresAt: string } };

export function NewAccessTokenForm({ scopes }: { scopes: { scope: string; description: string }[] }) {
  const router = useRouter();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState("");
  const [created, setCreated] = useState<Created | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setPending(true);
    const result = await portalFetch<Created>("/api/portal/tokens", "POST", {
      name: data.get("name"),
      scopes: data.getAll("scopes"),
      expiresInDays: data.get("expiresInDays"),
    });
    setPending(false);
    setErrors(result.ok ? {} : result.fieldErrors);
    setMessage(result.ok ? "" : result.message);
    if (!result.ok) return;
    setCreated(result.data);
    form.reset();
    router.refresh();
  }

  return (
    <section aria-labelledby="new-token" className="space-y-4 rounded-lg border border-slate-200 bg-white p-6">
      <h2 id="new-token" className="text-lg font-semibold">
        New access token
      </h2>
      {created ? (
        <section aria-label="New access token" className="space-y-3 rounded-lg border-2 border-amber-500 bg-amber-50 p-4">
          <p role="alert" className="font-semibold text-amber-900">
            Copy this access token now. It is shown only once and cannot be shown again.
          </p>
          <code data-testid="access-token" className="block break-all rounded bg-white px-1 text-sm">
            {created.token}
          </code>
          <p className="text-sm">Expires {new Date(created.accessToken.expiresAt).toUTCString()}</p>
          <ActionButton onClick={() => setCreated(null)} className={SECONDARY_BUTTON_CLASS}>
            I have stored it
          </ActionButton>
        </section>
      ) : null}
      <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2 sm:items-start">
        {message ? (
          <p role="alert" className="text-sm text-red-700 sm:col-span-2">
            {message}
          </p>
        ) : null}
        <Field id="token-name" label="Name" error={errors.name} hint="What the token is for, e.g. the CI pipeline that uses it.">
          <input
            id="token-name"
            name="name"
            maxLength={100}
            className={INPUT_CLASS}
            aria-describedby={errors.name ? "token-name-hint token-name-error" : "token-name-hint"}
          />
        </Field>
        <Field id="token-lifetime" label="Expires in">
          <select id="token-lifetime" name="expiresInDays" defaultValue="30" className={INPUT_CLASS}>
            {LIFETIME_CHOICES.map((days) => (
              <option key={days} value={days}>
                {days} days
              </option>
            ))}
          </select>
        </Field>
        <fieldset className="space-y-2 sm:col-span-2" aria-describedby={errors.scopes ? "token-scopes-error" : undefined}>
          <legend className="text-sm font-medium">Scopes</legend>
          {scopes.map(({ scope, description }) => (
            <label key={scope} className="flex items-start gap-2 text-sm">
              <input type="checkbox" name="scopes" value={scope} className="mt-1" />
              <span>
                <code className="font-mono">{scope}</code> — {description}
              </span>
            </label>
          ))}
          {errors.scopes ? (
            <p id="token-scopes-error" className="whitespace-pre-line text-sm text-red-700">
              {errors.scopes}
            </p>
          ) : null}
        </fieldset>
        <div className="sm:col-span-2">
          <SubmitButton pending={pending} className={BUTTON_CLASS}>
            Create token
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}
