"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { BUTTON_CLASS, Field, INPUT_CLASS } from "../settings/field";
import { portalFetch } from "../settings/portal-fetch";
import { SubmitButton } from "@/components/submit-button";

type Props = {
  api: string;
  plan: string;
  planName: string;
  applications: { id: string; name: string }[];
  environments: { slug: string; name: string }[];
  /** the environment the page shows, chosen first */
  environment: string;
};

/** "Subscribe" to one plan of an API: the developer picks one of their applications and an environment. */
export function SubscribeForm({ api, plan, planName, applications, environments, environment }: Props) {
  const router = useRouter();
  const [message, setMessage] = useState("");
  const [pending, setPending] = useState(false);
  const id = `subscribe-${plan}`;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    const fields = Object.fromEntries(new FormData(event.currentTarget));
    const result = await portalFetch<{ status: "active" | "pending" }>("/api/portal/subscriptions", "POST", { ...fields, api, plan });
    setPending(false);
    if (!result.ok) return setMessage(result.message);
    setMessage(
      result.data.status === "active"
        ? `Subscribed to ${planName}.`
        : `Requested ${planName}; an administrator decides, and your current plan holds until then.`,
    );
    router.refresh();
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${id}-title`} className="flex flex-wrap items-end gap-3 text-sm">
      <span id={`${id}-title`} className="sr-only">{`Subscribe to ${planName}`}</span>
      <Field id={`${id}-application`} label="Application">
        <select id={`${id}-application`} name="application" className={INPUT_CLASS}>
          {applications.map((application) => (
            <option key={application.id} value={application.id}>
              {application.name}
            </option>
          ))}
        </select>
      </Field>
      <Field id={`${id}-environment`} label="Environment">
        <select id={`${id}-environment`} name="environment" defaultValue={environment} className={INPUT_CLASS}>
          {environments.map((env) => (
            <option key={env.slug} value={env.slug}>
              {env.name}
            </option>
          ))}
        </select>
      </Field>
      <SubmitButton pending={pending} className={BUTTON_CLASS}>
        Subscribe
      </SubmitButton>
      <p role="status" className="w-full text-slate-700">
        {message}
      </p>
    </form>
  );
}
