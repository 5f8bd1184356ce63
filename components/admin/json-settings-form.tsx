"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { BUTTON_CLASS, Field, INPUT_CLASS } from "@/components/settings/field";
import { portalFetch } from "@/components/settings/portal-fetch";
import { SubmitButton } from "@/components/submit-button";

type Props = {
  /** the textarea's id, also the stem of its hint's and error's ids */
  id: string;
  label: string;
  hint: string;
  /** where the JSON goes; the server checks it and answers errors by field */
  url: string;
  method: "POST" | "PUT";
  initial: string;
  /** names the whole value in an error of no field */
  rootField: string;
  submitLabel: string;
  savedMessage: string;
};

/** One JSON field of an API's settings, saved as is; each error the server answers names where in the JSON it is. */
export function JsonSettingsForm({ id, label, hint, url, method, initial, rootField, submitLabel, savedMessage }: Props) {
  const router = useRouter();
  const [text, setText] = useState(initial);
  const [error, setError] = useState("");
  const [message, setMessage] = useState({ text: "", ok: false });
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    let value: unknown;
    try {
      value = JSON.parse(text.trim() || "{}");
    } catch (unreadable) {
      setError(`Not JSON: ${(unreadable as Error).message}`);
      setMessage({ text: "Check the field marked below.", ok: false });
      return;
    }
    setPending(true);
    const result = await portalFetch(url, method, value);
    setPending(false);
    setError(
      result.ok
        ? ""
        : Object.entries(result.fieldErrors)
            .map(([field, why]) => `${field || rootField}: ${why}`)
            .join("\n"),
    );
    setMessage(result.ok ? { text: savedMessage, ok: true } : { text: result.message, ok: false });
    if (result.ok) router.refresh();
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      {message.text ? (
        <p role={message.ok ? "status" : "alert"} className={message.ok ? "text-sm text-green-800" : "text-sm text-red-700"}>
          {message.text}
        </p>
      ) : null}
      <Field id={id} label={label} error={error} hint={hint}>
        <textarea
          id={id}
          aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={10}
          className={`${INPUT_CLASS} font-mono text-xs`}
        />
      </Field>
      <SubmitButton pending={pending} className={BUTTON_CLASS}>
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
