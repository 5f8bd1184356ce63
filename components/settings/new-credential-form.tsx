"use client";

import { Link } from "@/components/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { BUTTON_CLASS, Field, INPUT_CLASS } from "./field";
import { type FieldErrors, portalFetch } from "./portal-fetch";
import { SecretOnce, type ShownSecret } from "./secret-once";
import { EXPIRY_CHOICES } from "./expiry-choices";
import { SubmitButton } from "@/components/submit-button";

type Environment = { slug: string; name: string };
type Team = { id: string; name: string };

type TrustField = "issuer" | "audience" | "subject";

const TRUST_FIELDS: { name: TrustField; label: string; placeholder: string }[] = [
  { name: "issuer", label: "Issuer URL (https)", placeholder: "https://token.actions.githubusercontent.com" },
  { name: "audience", label: "Required audience", placeholder: "https://gatehouse.example.com" },
  { name: "subject", label: "Subject, exact or with * for any characters", placeholder: "repo:acme/billing:ref:refs/heads/main" },
];

const filled = (value: FormDataEntryValue | undefined) => typeof value === "string" && value.trim() !== "";

/** The key set as typed: its JSON when it parses, else the text, which the route refuses naming the field. */
function keySet(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The form's fields as the route's JSON body, the one the management API takes: the expiry a number,
 * the key set parsed, blank optional fields left out, and the trust fields, when any is filled, as one
 * `trust` object.
 */
function bodyOf(data: FormData): Record<string, unknown> {
  const {
    "trust-issuer": issuer,
    "trust-audience": audience,
    "trust-subject": subject,
    team,
    jwks,
    jwksUri,
    expiresInDays,
    requireDpop,
    ...rest
  } = Object.fromEntries(data);
  return {
    ...rest,
    expiresInDays: Number(expiresInDays ?? 0),
    requireDpop: requireDpop === "on",
    ...(filled(team) ? { team } : {}),
    ...(filled(jwks) ? { jwks: keySet(String(jwks)) } : {}),
    ...(filled(jwksUri) ? { jwksUri } : {}),
    ...([issuer, audience, subject].some(filled) ? { trust: { issuer, audience, subject } } : {}),
  };
}

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
  const [keyClient, setKeyClient] = useState<{ clientId: string; method: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setPending(true);
    const result = await portalFetch<{ credential: { clientId: string; authentication: { method: string } }; secret: ShownSecret | null }>(
      "/api/portal/credentials",
      "POST",
      bodyOf(new FormData(form)),
    );
    setPending(false);
    setErrors(result.ok ? {} : result.fieldErrors);
    setMessage(result.ok ? "" : result.message);
    if (!result.ok) return;
    setSecret(result.data.secret);
    setKeyClient(result.data.secret ? null : { clientId: result.data.credential.clientId, method: result.data.credential.authentication.method });
    form.reset();
    router.refresh();
  }

  // A key's fault is reported under its place in the set (`jwks.keys.0.kty`): shown under the one box.
  const jwksError =
    Object.entries(errors)
      .filter(([field]) => field === "jwks" || field.startsWith("jwks."))
      .map(([field, text]) => (field === "jwks" ? text : `${field.slice(5)}: ${text}`))
      .join("\n") || undefined;

  const trustError = (name: TrustField) => errors[`trust.${name}`];

  return (
    <section aria-labelledby="new-credential" className="space-y-4 rounded-lg border border-slate-200 bg-white p-6">
      <h2 id="new-credential" className="text-lg font-semibold">
        New credential
      </h2>
      {secret ? <SecretOnce secret={secret} onDismiss={() => setSecret(null)} /> : null}
      {keyClient ? (
        <p role="status" className="rounded border border-green-700 bg-green-50 p-3 text-sm">
          Created <code className="font-mono">{keyClient.clientId}</code>. It has no secret:{" "}
          {keyClient.method === "federated"
            ? "send your platform's ID token as the client assertion to get tokens."
            : "sign a client assertion with your private key (private_key_jwt) to get tokens."}
        </p>
      ) : null}
      <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2 sm:items-start">
        {message ? (
          <p role="alert" className="text-sm text-red-700 sm:col-span-2">
            {message}
          </p>
        ) : null}
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
        <label className="flex items-start gap-2 text-sm sm:col-span-2">
          <input type="checkbox" name="requireDpop" className="mt-1" />
          <span>
            Require DPoP (RFC 9449): tokens are issued only with a DPoP proof and work only with proofs of the same key, so a leaked token is useless without
            your client&apos;s private key.
          </span>
        </label>
        <details className="space-y-3 sm:col-span-2" open={Boolean(jwksError || errors.jwksUri)}>
          <summary className="cursor-pointer text-sm font-medium">Authenticate with your own keys instead of a secret (private_key_jwt)</summary>
          <p className="text-sm text-slate-700">
            Give your public keys, inline or by URL; the credential then has no secret, and your client signs a short-lived JWT for each token request.
          </p>
          <Field id="jwks" label="Public keys (JWKS JSON)" error={jwksError}>
            <textarea
              id="jwks"
              name="jwks"
              rows={4}
              spellCheck={false}
              placeholder='{"keys": [{"kty": "EC", "crv": "P-256", "x": "…", "y": "…", "kid": "ci-key-1"}]}'
              className={`${INPUT_CLASS} font-mono`}
              aria-describedby={jwksError ? "jwks-error" : undefined}
            />
          </Field>
          <Field id="jwksUri" label="Or the URL of your JWKS (https)" error={errors.jwksUri}>
            <input
              id="jwksUri"
              name="jwksUri"
              type="url"
              maxLength={2048}
              className={INPUT_CLASS}
              aria-describedby={errors.jwksUri ? "jwksUri-error" : undefined}
            />
          </Field>
        </details>
        <details className="space-y-3 sm:col-span-2" open={Boolean(trustError("issuer") || trustError("audience") || trustError("subject") || errors.trust)}>
          <summary className="cursor-pointer text-sm font-medium">Trust an external OIDC issuer instead of a secret (workload identity federation)</summary>
          <p className="text-sm text-slate-700">
            A workload that holds an ID token from its platform (GitHub Actions, a Kubernetes service account, a cloud) sends it as its client assertion. The
            credential then has no secret at all: no secret is issued, and none can be rotated.
          </p>
          {errors.trust ? (
            <p role="alert" className="text-sm text-red-700">
              {errors.trust}
            </p>
          ) : null}
          {TRUST_FIELDS.map(({ name, label, placeholder }) => {
            const id = `trust-${name}`;
            const error = trustError(name);
            return (
              <Field key={name} id={id} label={label} error={error}>
                <input
                  id={id}
                  name={id}
                  type={name === "issuer" ? "url" : "text"}
                  maxLength={name === "issuer" ? 2048 : 500}
                  placeholder={placeholder}
                  className={INPUT_CLASS}
                  aria-describedby={error ? `${id}-error` : undefined}
                />
              </Field>
            );
          })}
        </details>
        <div className="sm:col-span-2">
          <SubmitButton pending={pending} className={BUTTON_CLASS}>
            Create credential
          </SubmitButton>
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
