"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { BUTTON_CLASS, Field, INPUT_CLASS } from "@/components/settings/field";
import { type FieldErrors, portalFetch } from "@/components/settings/portal-fetch";
import { SubmitButton } from "@/components/submit-button";

export type FormField = {
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "textarea" | "select";
  options?: { value: string; label: string }[];
  hint?: string;
  defaultValue?: string;
};

/** A form posted as JSON to one admin route, with the server's field errors shown beside each field. */
export function AdminForm({
  action,
  fields,
  submitLabel,
  successMessage,
}: {
  action: string;
  fields: FormField[];
  submitLabel: string;
  successMessage: string;
}) {
  const router = useRouter();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState({ text: "", ok: false });
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setPending(true);
    const result = await portalFetch(action, "POST", Object.fromEntries(new FormData(form)));
    setPending(false);
    setErrors(result.ok ? {} : result.fieldErrors);
    setMessage(result.ok ? { text: successMessage, ok: true } : { text: result.message, ok: false });
    if (!result.ok) return;
    form.reset();
    router.refresh();
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2">
      {message.text ? (
        <p role={message.ok ? "status" : "alert"} className={message.ok ? "text-sm text-green-800 sm:col-span-2" : "text-sm text-red-700 sm:col-span-2"}>
          {message.text}
        </p>
      ) : null}
      {fields.map((field) => {
        const id = `${action.replaceAll("/", "-")}-${field.name}`;
        const common = {
          id,
          name: field.name,
          defaultValue: field.defaultValue,
          className: INPUT_CLASS,
          "aria-describedby": errors[field.name] ? `${id}-error` : undefined,
        };
        return (
          <div key={field.name} className={field.type === "textarea" ? "sm:col-span-2" : undefined}>
            <Field id={id} label={field.label} error={errors[field.name]} hint={field.hint}>
              {field.type === "select" ? (
                <select {...common}>
                  {field.options?.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              ) : field.type === "textarea" ? (
                <textarea {...common} rows={4} />
              ) : (
                <input {...common} type={field.type ?? "text"} />
              )}
            </Field>
          </div>
        );
      })}
      <div className="space-y-2 sm:col-span-2">
        <SubmitButton pending={pending} className={BUTTON_CLASS}>
          {submitLabel}
        </SubmitButton>
      </div>
    </form>
  );
}
