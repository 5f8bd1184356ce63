"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { BUTTON_CLASS, Field, INPUT_CLASS } from "@/components/settings/field";
import { portalFetch } from "@/components/settings/portal-fetch";

/** The API's `{ policies, routes }` as JSON text; the server checks it against the policies' schema and the API's documents. */
export function ApiPoliciesForm({ slug, initial }: { slug: string; initial: string }) {
  const router = useRouter();
  const [text, setText] = useState(initial);
  const [error, setError] = useState("");
  const [message, setMessage] = useState({ text: "", ok: false });
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    let policies: unknown;
    try {
      policies = JSON.parse(text.trim() || "{}");
    } catch (unreadable) {
      setError(`Not JSON: ${(unreadable as Error).message}`);
      setMessage({ text: "Check the field marked below.", ok: false });
      return;
    }
    setPending(true);
    const result = await portalFetch(`/api/portal/admin/apis/${slug}/policies`, "POST", policies);
    setPending(false);
    // Each error names where in the JSON it is, as the upstream settings' errors do.
    setError(
      result.ok
        ? ""
        : Object.entries(result.fieldErrors)
            .map(([field, why]) => `${field || "policies"}: ${why}`)
            .join("\n"),
    );
    setMessage(result.ok ? { text: "Saved: the gateway applies the policies within seconds.", ok: true } : { text: result.message, ok: false });
    if (result.ok) router.refresh();
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      {message.text ? (
        <p role={message.ok ? "status" : "alert"} className={message.ok ? "text-sm text-green-800" : "text-sm text-red-700"}>
          {message.text}
        </p>
      ) : null}
      <Field
        id="api-policies"
        label="Policies (JSON)"
        error={error}
        hint='{ "policies": { ... }, "routes": { "GET /v1/items/{id}": { ... } } }: requestValidation, responseCache, websocket; {} for none'
      >
        <textarea
          id="api-policies"
          aria-describedby={error ? "api-policies-hint api-policies-error" : "api-policies-hint"}
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={10}
          className={`${INPUT_CLASS} font-mono text-xs`}
        />
      </Field>
      <button type="submit" disabled={pending} className={BUTTON_CLASS}>
        Save policies
      </button>
    </form>
  );
}
