"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { ApiKeyOnce, type ShownApiKey } from "./api-key-once";
import { BUTTON_CLASS, Field, INPUT_CLASS } from "./field";
import { type FieldErrors, portalFetch } from "./portal-fetch";
import { SubmitButton } from "@/components/submit-button";

export type KeyPlace = { application: string; environment: string; environmentName: string };

export function NewApiKeyForm({ places }: { places: KeyPlace[] }) {
  const router = useRouter();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState("");
  const [created, setCreated] = useState<ShownApiKey | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const place = places[Number(data.get("place"))];
    const expiresAt = String(data.get("expiresAt") ?? "");
    setPending(true);
    const result = await portalFetch<ShownApiKey>("/api/portal/keys", "POST", {
      application: place?.application ?? "",
      environment: place?.environment ?? "",
      ...(expiresAt ? { expiresAt: `${expiresAt}T00:00:00Z` } : {}),
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
    <section aria-labelledby="new-key" className="space-y-4 rounded-lg border border-slate-200 bg-white p-6">
      <h2 id="new-key" className="text-lg font-semibold">
        New API key
      </h2>
      {created ? <ApiKeyOnce shown={created} onDismiss={() => setCreated(null)} /> : null}
      {places.length === 0 ? (
        <p className="text-slate-700">
          A key belongs to an application&apos;s credential in one environment. Create a credential in Client Credentials first (as an admin of its team).
        </p>
      ) : (
        <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2 sm:items-start">
          {message ? (
            <p role="alert" className="text-sm text-red-700 sm:col-span-2">
              {message}
            </p>
          ) : null}
          <Field id="key-place" label="Application and environment" error={errors.application ?? errors.environment}>
            <select id="key-place" name="place" className={INPUT_CLASS}>
              {places.map((place, index) => (
                <option key={`${place.application}/${place.environment}`} value={index}>
                  {place.application} — {place.environmentName}
                </option>
              ))}
            </select>
          </Field>
          <Field id="key-expires" label="Expires (optional)" error={errors.expiresAt} hint="Leave empty for a key that works until it is rolled or revoked.">
            <input id="key-expires" name="expiresAt" type="date" className={INPUT_CLASS} aria-describedby="key-expires-hint" />
          </Field>
          <div className="sm:col-span-2">
            <SubmitButton pending={pending} className={BUTTON_CLASS}>
              Create key
            </SubmitButton>
          </div>
        </form>
      )}
    </section>
  );
}
