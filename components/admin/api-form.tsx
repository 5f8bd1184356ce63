"use client";

import { useRouter } from "next/navigation";
import { type ChangeEvent, type FormEvent, useState } from "react";
import { BUTTON_CLASS, Field, INPUT_CLASS } from "@/components/settings/field";
import { type FieldErrors, portalFetch } from "@/components/settings/portal-fetch";
import { parseTargetsText } from "@/lib/upstreams/targets-text";
import { SubmitButton } from "@/components/submit-button";

export type ApiFormValues = {
  name: string;
  slug: string;
  summary: string;
  description: string;
  version: string;
  tags: string;
  scopes: string;
  visibility: "public" | "protected";
  credentialType: string;
  /** per offered environment, its targets as text: one `URL [weight]` per line */
  environments: Record<string, string | undefined>;
  /** per environment, the upstream's other settings as JSON text (health check, retries, timeouts...) */
  upstreamSettings: Record<string, string | undefined>;
  openapiDocument: string;
  /** every guide as one Markdown text, each starting with its `# Title` line */
  guides: string;
};

type Environment = { slug: string; name: string };

/** Create or edit an API; the server validates everything, including the OpenAPI document. */
export function ApiForm({
  initial,
  environments,
  editing,
  proxied,
}: {
  initial: ApiFormValues;
  environments: Environment[];
  editing: boolean;
  proxied: boolean;
}) {
  const router = useRouter();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState({ text: "", ok: false });
  const [pending, setPending] = useState(false);
  const set = (name: keyof ApiFormValues) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
    setValues({ ...values, [name]: event.target.value });
  const offered = environments.filter((env) => values.environments[env.slug] !== undefined);

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (file) setValues({ ...values, openapiDocument: await file.text() });
  }

  /** The environment's settings as an object, or the message that says why the text is not one. */
  function settingsOf(slug: string): Record<string, unknown> | string {
    const text = values.upstreamSettings[slug]?.trim() || "{}";
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : "Write a JSON object";
    } catch (error) {
      return `Not JSON: ${(error as Error).message}`;
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const settings = offered.map((env) => (proxied ? settingsOf(env.slug) : {}));
    const unreadable = settings.flatMap((found, index) => (typeof found === "string" ? [[`environments.${index}.upstream`, found] as const] : []));
    if (unreadable.length > 0) {
      setErrors(Object.fromEntries(unreadable));
      setMessage({ text: "Check the fields marked below.", ok: false });
      return;
    }
    setPending(true);
    const body = {
      ...values,
      upstreamSettings: undefined,
      environments: offered.map((env, index) => {
        const targets = proxied ? parseTargetsText(values.environments[env.slug] ?? "") : [];
        return targets.length > 0 ? { slug: env.slug, upstream: { ...(settings[index] as object), targets } } : { slug: env.slug };
      }),
    };
    const result = await portalFetch<{ slug: string }>(editing ? `/api/portal/admin/apis/${initial.slug}` : "/api/portal/admin/apis", "POST", body);
    setPending(false);
    setErrors(result.ok ? {} : result.fieldErrors);
    setMessage(result.ok ? { text: "Saved.", ok: true } : { text: result.message, ok: false });
    if (result.ok && !editing) router.push(`/admin/apis/${result.data.slug}`);
    else router.refresh();
  }

  const envError = (index: number, field: string) => errors[`environments.${index}.${field}`];
  const targetsError = (index: number) =>
    envError(index, "upstreamUrl") ?? Object.entries(errors).find(([field]) => field.startsWith(`environments.${index}.upstream.targets`))?.[1];
  const settingsError = (index: number) => {
    const found = Object.entries(errors).find(
      ([field]) =>
        field === `environments.${index}.upstream` ||
        (field.startsWith(`environments.${index}.upstream.`) && !field.startsWith(`environments.${index}.upstream.targets`)),
    );
    return found ? `${found[0].split(".").slice(3).join(".") || "settings"}: ${found[1]}` : undefined;
  };
  const text = (name: keyof ApiFormValues, label: string, options: { hint?: string; disabled?: boolean } = {}) => (
    <Field id={`api-${name}`} label={label} error={errors[name]} hint={options.hint}>
      <input
        id={`api-${name}`}
        value={values[name] as string}
        onChange={set(name)}
        disabled={options.disabled}
        className={INPUT_CLASS}
        aria-describedby={errors[name] ? `api-${name}-error` : undefined}
      />
    </Field>
  );

  return (
    <form onSubmit={submit} noValidate className="space-y-4 rounded-lg border border-slate-200 bg-white p-6">
      {message.text ? (
        <p role={message.ok ? "status" : "alert"} className={message.ok ? "text-sm text-green-800" : "text-sm text-red-700"}>
          {message.text}
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {text("name", "Name")}
        {text("slug", "Slug", { hint: "Path under the gateway: /gw/{env}/{slug}", disabled: editing })}
        {text("summary", "Summary")}
        {text("version", "Version")}
        {text("tags", "Tags", { hint: "Comma-separated" })}
        {proxied ? text("scopes", "Scopes", { hint: "Comma-separated, e.g. orders:read, orders:write" }) : null}
        <Field id="api-visibility" label="Visibility" error={errors.visibility}>
          <select id="api-visibility" value={values.visibility} onChange={set("visibility")} className={INPUT_CLASS}>
            <option value="protected">Protected (bearer token)</option>
            <option value="public">Public</option>
          </select>
        </Field>
        <Field id="api-credentialType" label="Credential type" error={errors.credentialType}>
          <select id="api-credentialType" value={values.credentialType} onChange={set("credentialType")} className={INPUT_CLASS}>
            <option value="">Each environment&apos;s own</option>
            <option value="GLOBAL_SSO">Global SSO</option>
            <option value="PLATFORM">Platform</option>
          </select>
        </Field>
      </div>
      <Field
        id="api-description"
        label="Description"
        error={errors.description}
        hint="Markdown: headings, lists, `code`, **bold**, links (http(s) or relative). HTML is shown as text."
      >
        <textarea
          id="api-description"
          aria-describedby={errors.description ? "api-description-hint api-description-error" : "api-description-hint"}
          value={values.description}
          onChange={set("description")}
          rows={3}
          className={INPUT_CLASS}
        />
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Environments{proxied ? " and upstreams" : ""}</legend>
        {errors.environments ? <p className="text-sm text-red-700">{errors.environments}</p> : null}
        {environments.map((env) => {
          const checked = values.environments[env.slug] !== undefined;
          const index = offered.findIndex((candidate) => candidate.slug === env.slug);
          return (
            <div key={env.slug} className="grid gap-2 sm:grid-cols-[14rem_1fr] sm:items-center">
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={checked}
                  onChange={(event) => setValues({ ...values, environments: { ...values.environments, [env.slug]: event.target.checked ? "" : undefined } })}
                />
                {env.name}
              </label>
              {proxied && checked ? (
                <div className="space-y-2">
                  <Field
                    id={`upstream-${env.slug}`}
                    label={`Upstream targets in ${env.name}`}
                    hint="One URL per line, with an optional weight after it (0 drains the target)"
                    error={targetsError(index)}
                  >
                    <textarea
                      id={`upstream-${env.slug}`}
                      aria-describedby={targetsError(index) ? `upstream-${env.slug}-error` : undefined}
                      value={values.environments[env.slug] ?? ""}
                      onChange={(event) => setValues({ ...values, environments: { ...values.environments, [env.slug]: event.target.value } })}
                      placeholder={"https://orders-a.internal.example/api\nhttps://orders-b.internal.example/api 2"}
                      rows={2}
                      className={INPUT_CLASS}
                    />
                  </Field>
                  <Field
                    id={`upstream-settings-${env.slug}`}
                    label={`Health checks, retries and limits in ${env.name} (JSON)`}
                    hint="healthCheck, passive, circuitBreaker, retries, timeouts, maxRequestBodyBytes; empty for the defaults"
                    error={settingsError(index)}
                  >
                    <textarea
                      id={`upstream-settings-${env.slug}`}
                      aria-describedby={settingsError(index) ? `upstream-settings-${env.slug}-error` : undefined}
                      value={values.upstreamSettings[env.slug] ?? ""}
                      onChange={(event) => setValues({ ...values, upstreamSettings: { ...values.upstreamSettings, [env.slug]: event.target.value } })}
                      placeholder={'{ "healthCheck": { "path": "/health" }, "retries": 1 }'}
                      rows={3}
                      className={`${INPUT_CLASS} font-mono`}
                    />
                  </Field>
                </div>
              ) : null}
            </div>
          );
        })}
      </fieldset>
      {proxied ? (
        <>
          <Field id="api-openapi-file" label="Upload an OpenAPI document">
            <input id="api-openapi-file" type="file" accept=".json,.yaml,.yml,application/json" onChange={upload} className="text-sm" />
          </Field>
          <Field id="api-openapiDocument" label="OpenAPI document (JSON or YAML)" error={errors.openapiDocument}>
            <textarea
              id="api-openapiDocument"
              aria-describedby={errors.openapiDocument ? "api-openapiDocument-error" : undefined}
              value={values.openapiDocument}
              onChange={set("openapiDocument")}
              rows={10}
              className={`${INPUT_CLASS} font-mono text-xs`}
            />
          </Field>
          <Field
            id="api-guides"
            label="Guides (Markdown)"
            error={errors.guides}
            hint="Start each guide with a # Title line; it is published at /apis/{slug}/guides/{title as a slug}."
          >
            <textarea
              id="api-guides"
              aria-describedby={errors.guides ? "api-guides-error api-guides-hint" : "api-guides-hint"}
              value={values.guides}
              onChange={set("guides")}
              rows={10}
              className={`${INPUT_CLASS} font-mono text-xs`}
            />
          </Field>
        </>
      ) : (
        <p className="text-sm text-slate-700">This built-in API generates its OpenAPI document from code.</p>
      )}
      <SubmitButton pending={pending} className={BUTTON_CLASS}>
        {editing ? "Save API" : "Create API"}
      </SubmitButton>
    </form>
  );
}
