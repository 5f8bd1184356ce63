"use client";

import { Link } from "@/components/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { BUTTON_CLASS, Field, INPUT_CLASS } from "./field";
import { type FieldErrors, portalFetch } from "./portal-fetch";
import { SecretOnce, type ShownSecret } from "./secret-once";
import { EXPIRY_CHOICES } from "./expiry-choices";

type Environment = { slug: string; name: string };
type Team = { id: string; name: string };

export function NewCredentialForm({
  applications,
  teams,
  environments,
  approvalEnvironments,
}: {
  applications: string[];
  /** the user's teams other than their personal one where they may create credentials */
  teams: Team[];
  environments: Environment[];
  approvalEnvironments: Environment[];
}) {
  const router = useRouter();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState("");
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setPending(true);
    const result = await portalFetch<{ secret: ShownSecret }>("/api/portal/credentials", "POST", Object.fromEntries(new FormData(form)));
    setPending(false);
    setErrors(result.ok ? {} : result.fieldErrors);
    setMessage(result.ok ? "" : result.message);
    if (!result.ok) return;
    setSecret(result.data.secret);
    form.reset();
    router.refresh();
  }

  return (
    <section aria-labelledby="new-credential" className="space-y-4 rounded-lg border border-slate-200 bg-white p-6">
      <h2 id="new-credential" className="text-lg font-semibold">
        New credential
      </h2>
      {secret ? <SecretOnce secret={secret} onDismiss={() => setSecret(null)} /> : null}
      <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2 sm:items-start">
        <Field id="application" label="Application" error={errors.application}>
          <input
            id="application"
            name="application"
            list="application-names"
            maxLength={100}
            className={INPUT_CLASS}
            aria-describedby={errors.application ? "application-error" : undefined}
          />
          <datalist id="application-names">
            {applications.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        </Field>
        <Field id="team" label="Team" error={errors.team}>
          <select id="team" name="team" className={INPUT_CLASS} aria-describedby={errors.team ? "team-error" : undefined}>
            <option value="">Personal team</option>
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="environment" label="Environment" error={errors.environment}>
          <select id="environment" name="environment" className={INPUT_CLASS} aria-describedby={errors.environment ? "environment-error" : undefined}>
            {environments.map((env) => (
              <option key={env.slug} value={env.slug}>
                {env.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="expiresInDays" label="Secret expires">
          <select id="expiresInDays" name="expiresInDays" className={INPUT_CLASS}>
            {EXPIRY_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </Field>
        {message ? (
          <p role="alert" className="text-sm text-red-700 sm:col-span-2">
            {message}
          </p>
        ) : null}
        <div className="sm:col-span-2">
          <button type="submit" disabled={pending} className={BUTTON_CLASS}>
            Create credential
          </button>
        </div>
      </form>
      {approvalEnvironments.length > 0 ? (
        <p className="text-sm text-slate-700">
          {approvalEnvironments.map((env) => env.name).join(" and ")} need an administrator&apos;s approval:{" "}
          <Link href="/contact?topic=CREDENTIALS" className="text-blue-700 underline">
            request credentials through Contact Us
          </Link>
          .
        </p>
      ) : null}
    </section>
  );
}
