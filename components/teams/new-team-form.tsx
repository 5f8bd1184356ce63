"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { BUTTON_CLASS, Field, INPUT_CLASS } from "../settings/field";
import { type FieldErrors, portalFetch } from "../settings/portal-fetch";
import { SubmitButton } from "@/components/submit-button";

export function NewTeamForm() {
  const router = useRouter();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState("");
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setPending(true);
    const result = await portalFetch("/api/portal/teams", "POST", Object.fromEntries(new FormData(form)));
    setPending(false);
    setErrors(result.ok ? {} : result.fieldErrors);
    setMessage(result.ok ? "" : result.message);
    if (!result.ok) return;
    form.reset();
    router.refresh();
  }

  return (
    <section aria-labelledby="new-team" className="space-y-4 rounded-lg border border-slate-200 bg-white p-6">
      <h2 id="new-team" className="text-lg font-semibold">
        New team
      </h2>
      {message ? (
        <p role="alert" className="text-sm text-red-700">
          {message}
        </p>
      ) : null}
      <form onSubmit={submit} noValidate className="flex flex-wrap items-start gap-4">
        <Field id="team-name" label="Name" error={errors.name}>
          <input id="team-name" name="name" maxLength={100} className={INPUT_CLASS} aria-describedby={errors.name ? "team-name-error" : undefined} />
        </Field>
        <SubmitButton pending={pending} className={`${BUTTON_CLASS} mt-6`}>
          Create team
        </SubmitButton>
      </form>
    </section>
  );
}
