"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { BUTTON_CLASS } from "@/components/settings/field";
import { portalFetch } from "@/components/settings/portal-fetch";
import { AUTHENTICATION_METHODS, type AuthenticationMethod } from "@/lib/gateway/policies/authentication/schema";
import { SubmitButton } from "@/components/submit-button";

const LABELS: Record<AuthenticationMethod, string> = {
  oauth2: "OAuth 2.0 access tokens (Authorization: Bearer, DPoP)",
  apiKey: "API keys (X-API-Key: gk_… or Authorization: Bearer gk_…)",
};

/** The methods a call to an API may authenticate with, any of them; the order they were chosen in is the order of the gateway's challenges. */
export function ApiAuthenticationSection({ slug, initial }: { slug: string; initial: AuthenticationMethod[] }) {
  const router = useRouter();
  const [methods, setMethods] = useState(initial);
  const [message, setMessage] = useState({ text: "", ok: false });
  const [pending, setPending] = useState(false);

  function toggle(method: AuthenticationMethod, on: boolean) {
    setMethods((current) => (on ? [...current.filter((each) => each !== method), method] : current.filter((each) => each !== method)));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    const result = await portalFetch(`/api/portal/admin/apis/${slug}/authentication`, "PUT", { authentication: methods });
    setPending(false);
    const why = result.ok ? "" : Object.values(result.fieldErrors).join(" ") || result.message;
    setMessage(result.ok ? { text: "Saved: the gateway accepts these methods within seconds.", ok: true } : { text: why, ok: false });
    if (result.ok) router.refresh();
  }

  return (
    <section aria-labelledby="api-authentication-title" className="space-y-4">
      <h2 id="api-authentication-title" className="text-xl font-semibold">
        Authentication
      </h2>
      <p className="text-sm text-slate-700">
        A call is accepted when any method chosen here succeeds. A refused call names each of them in a <code>WWW-Authenticate</code> field, in this order:{" "}
        {methods.join(", ") || "none"}.
      </p>
      <form onSubmit={submit} noValidate className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        {message.text ? (
          <p role={message.ok ? "status" : "alert"} className={message.ok ? "text-sm text-green-800" : "text-sm text-red-700"}>
            {message.text}
          </p>
        ) : null}
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Methods</legend>
          {AUTHENTICATION_METHODS.map((method) => (
            <label key={method} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                name="authentication"
                value={method}
                checked={methods.includes(method)}
                onChange={(event) => toggle(method, event.target.checked)}
                className="mt-1"
              />
              <span>{LABELS[method]}</span>
            </label>
          ))}
        </fieldset>
        <SubmitButton pending={pending} className={BUTTON_CLASS}>
          Save methods
        </SubmitButton>
      </form>
    </section>
  );
}
