"use client";

import { Link } from "@/components/link";
import { type FormEvent, useState } from "react";
import { BUTTON_CLASS, Field, INPUT_CLASS } from "@/components/settings/field";
import { type FieldErrors, portalFetch } from "@/components/settings/portal-fetch";
import { SubmitButton } from "@/components/submit-button";

type Choice = { slug: string; name: string };
type Props = {
  choices: { apis: Choice[]; environments: Choice[] };
  signedIn: { name: string; email: string } | null;
  initial: { topic: string; api: string; environment: string };
};

const TOPICS = [
  { value: "CREDENTIALS", label: "Request credentials" },
  { value: "API_ACCESS", label: "Request API access" },
  { value: "OTHER", label: "Other" },
];

export function ContactForm({ choices, signedIn, initial }: Props) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState("");
  const [sent, setSent] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    const result = await portalFetch<{ id: string }>("/api/portal/contact", "POST", Object.fromEntries(new FormData(event.currentTarget)));
    setPending(false);
    if (result.ok) return setSent(result.data.id);
    setErrors(result.fieldErrors);
    setMessage(result.message);
  }

  if (sent) {
    return (
      <div role="status" className="rounded-lg border border-green-300 bg-green-50 p-4">
        <p className="font-medium">Thank you. Your message was sent (reference {sent}).</p>
        {signedIn ? (
          <p className="mt-1">
            Follow its status under{" "}
            <Link href="/settings/requests" className="text-blue-700 underline">
              Settings → Requests
            </Link>
            .
          </p>
        ) : (
          <p className="mt-1">An administrator will answer by email.</p>
        )}
      </div>
    );
  }

  const describedBy = (id: string) => (errors[id] ? `${id}-error` : undefined);
  return (
    <form onSubmit={submit} noValidate className="space-y-4 rounded-lg border border-slate-200 bg-white p-6">
      {message ? (
        <p role="alert" className="text-sm text-red-700">
          {message}
        </p>
      ) : null}
      <Field id="topic" label="Topic" error={errors.topic}>
        <select id="topic" name="topic" defaultValue={initial.topic || "CREDENTIALS"} aria-describedby={describedBy("topic")} className={INPUT_CLASS}>
          {TOPICS.map((topic) => (
            <option key={topic.value} value={topic.value}>
              {topic.label}
            </option>
          ))}
        </select>
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="api" label="API" error={errors.api}>
          <select id="api" name="api" defaultValue={initial.api} aria-describedby={describedBy("api")} className={INPUT_CLASS}>
            <option value="">(none)</option>
            {choices.apis.map((api) => (
              <option key={api.slug} value={api.slug}>
                {api.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="environment" label="Environment" error={errors.environment}>
          <select id="environment" name="environment" defaultValue={initial.environment} aria-describedby={describedBy("environment")} className={INPUT_CLASS}>
            <option value="">(none)</option>
            {choices.environments.map((env) => (
              <option key={env.slug} value={env.slug}>
                {env.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Field
        id="application"
        label="Application"
        error={errors.application}
        hint="The application the credentials are for; it is created if it does not exist."
      >
        <input id="application" name="application" maxLength={100} aria-describedby={describedBy("application")} className={INPUT_CLASS} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="name" label="Name" error={errors.name}>
          <input id="name" name="name" defaultValue={signedIn?.name} autoComplete="name" aria-describedby={describedBy("name")} className={INPUT_CLASS} />
        </Field>
        <Field id="email" label="Email" error={errors.email}>
          <input
            id="email"
            name="email"
            type="email"
            defaultValue={signedIn?.email}
            readOnly={Boolean(signedIn)}
            autoComplete="email"
            aria-describedby={describedBy("email")}
            className={INPUT_CLASS}
          />
        </Field>
      </div>
      <Field id="message" label="Message" error={errors.message}>
        <textarea id="message" name="message" rows={5} maxLength={4000} aria-describedby={describedBy("message")} className={INPUT_CLASS} />
      </Field>
      <SubmitButton pending={pending} className={BUTTON_CLASS}>
        Send
      </SubmitButton>
    </form>
  );
}
