"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { BUTTON_CLASS } from "./field";
import { portalFetch } from "./portal-fetch";
import { SubmitButton } from "@/components/submit-button";

type Preference = { type: string; description: string; email: boolean };

export function EmailPreferencesForm({ preferences }: { preferences: Preference[] }) {
  const router = useRouter();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    const result = await portalFetch("/api/portal/email-preferences", "PUT", { receive: new FormData(event.currentTarget).getAll("receive") });
    setPending(false);
    setMessage(result.ok ? { ok: true, text: "Saved." } : { ok: false, text: result.message });
    if (result.ok) router.refresh();
  }

  return (
    <form onSubmit={submit} className="space-y-4 rounded-lg border border-slate-200 bg-white p-6">
      <fieldset className="space-y-2">
        <legend className="text-lg font-semibold">Send me an email when</legend>
        {preferences.map((preference) => (
          <label key={preference.type} className="flex items-start gap-2">
            <input type="checkbox" name="receive" value={preference.type} defaultChecked={preference.email} className="mt-1.5" />
            <span>
              {preference.description} <code className="font-mono text-sm text-slate-600">{preference.type}</code>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="flex items-center gap-4">
        <SubmitButton pending={pending} className={BUTTON_CLASS}>
          Save
        </SubmitButton>
        {message ? (
          <p role={message.ok ? "status" : "alert"} className={message.ok ? "text-green-800" : "text-red-800"}>
            {message.text}
          </p>
        ) : null}
      </div>
    </form>
  );
}
