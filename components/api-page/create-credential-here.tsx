"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { BUTTON_CLASS, Field, INPUT_CLASS } from "@/components/settings/field";
import { type FieldErrors, portalFetch } from "@/components/settings/portal-fetch";
import { SecretOnce, type ShownSecret } from "@/components/settings/secret-once";
import { authorizeReference } from "@/components/swagger/authorize-event";
import { SubmitButton } from "@/components/submit-button";

type Props = {
  environment: string;
  environmentName: string;
  idPrefix: string;
  /** on the Reference tab: hand a test token of the new credential to Swagger UI at once */
  applyTestToken?: boolean;
};

/**
 * Creates a credential in a self-service environment without leaving the API page. The secret
 * is shown once; the page refreshes (showing the credential instead) only when it is dismissed.
 */
export function CreateCredentialHere({ environment, environmentName, idPrefix, applyTestToken = false }: Props) {
  const router = useRouter();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState("");
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [pending, setPending] = useState(false);
  const fieldId = `${idPrefix}-application`;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    const application = new FormData(event.currentTarget).get("application");
    const result = await portalFetch<{ secret: ShownSecret }>("/api/portal/credentials", "POST", { application, environment });
    setPending(false);
    setErrors(result.ok ? {} : result.fieldErrors);
    setMessage(result.ok ? "" : result.message);
    if (!result.ok) return;
    setSecret(result.data.secret);
    if (applyTestToken) await applyTestTokenOf(result.data.secret.clientId);
  }

  async function applyTestTokenOf(clientId: string) {
    const token = await portalFetch<{ accessToken: string }>(`/api/portal/credentials/${encodeURIComponent(clientId)}/test-token`, "POST", {});
    if (token.ok) authorizeReference(token.data.accessToken);
    setMessage(token.ok ? "" : token.message);
  }

  if (secret) {
    return (
      <div className="space-y-2">
        <SecretOnce
          secret={secret}
          onDismiss={() => {
            setSecret(null);
            router.refresh();
          }}
        />
        {applyTestToken && !message ? (
          <p role="status" className="text-sm text-green-800">
            A test token of this credential is applied to the reference below.
          </p>
        ) : null}
        {message ? (
          <p role="alert" className="text-sm text-red-700">
            {message}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-3">
      {message ? (
        <p role="alert" className="w-full text-sm text-red-700">
          {message}
        </p>
      ) : null}
      <Field id={fieldId} label="Application name" error={errors.application}>
        <input id={fieldId} name="application" defaultValue="My first application" maxLength={100} className={INPUT_CLASS} />
      </Field>
      <SubmitButton pending={pending} className={BUTTON_CLASS}>
        {`Create a credential in ${environmentName}`}
      </SubmitButton>
    </form>
  );
}
