"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { EXPIRY_CHOICES } from "./expiry-choices";
import { INPUT_CLASS, SECONDARY_BUTTON_CLASS } from "./field";
import { portalFetch } from "./portal-fetch";
import { SecretOnce, type ShownSecret } from "./secret-once";
import { ActionButton } from "@/components/action-button";

const GRACE_CHOICES = [0, 1, 4, 12, 24];

/**
 * `secrets`: rotate the live one, generate the first, or none at all for a client that authenticates with keys or a trusted issuer.
 * `requiresDpop`: the credential's own DPoP switch, which the button turns over.
 */
export function CredentialActions({ clientId, secrets, requiresDpop }: { clientId: string; secrets: "rotate" | "first" | "none"; requiresDpop: boolean }) {
  const router = useRouter();
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [error, setError] = useState("");
  const [graceHours, setGraceHours] = useState("1");
  const [expiresInDays, setExpiresInDays] = useState("0");
  const [pending, setPending] = useState(false);
  const base = `/api/portal/credentials/${encodeURIComponent(clientId)}`;

  async function run(path: string, body: unknown, showsSecret: boolean, method: "POST" | "PUT" = "POST") {
    setPending(true);
    const result = await portalFetch<ShownSecret>(`${base}/${path}`, method, body);
    setPending(false);
    setError(result.ok ? "" : (Object.values(result.fieldErrors)[0] ?? result.message));
    if (result.ok && showsSecret) setSecret(result.data);
    router.refresh();
  }

  function revoke() {
    if (window.confirm(`Revoke ${clientId}? Its secrets and tokens stop working at once.`)) void run("revoke", {}, false);
  }

  return (
    <div className="space-y-3">
      {secret ? <SecretOnce secret={secret} onDismiss={() => setSecret(null)} /> : null}
      <div className="flex flex-wrap items-end gap-3">
        {secrets === "none" ? null : (
          <>
            <div className="space-y-1">
              <label htmlFor={`expiry-${clientId}`} className="block text-xs font-medium">
                New secret expires
              </label>
              <select id={`expiry-${clientId}`} value={expiresInDays} onChange={(event) => setExpiresInDays(event.target.value)} className={INPUT_CLASS}>
                {EXPIRY_CHOICES.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </select>
            </div>
            {secrets === "rotate" ? (
              <>
                <div className="space-y-1">
                  <label htmlFor={`grace-${clientId}`} className="block text-xs font-medium">
                    Old secret stays valid for
                  </label>
                  <select id={`grace-${clientId}`} value={graceHours} onChange={(event) => setGraceHours(event.target.value)} className={INPUT_CLASS}>
                    {GRACE_CHOICES.map((hours) => (
                      <option key={hours} value={hours}>
                        {hours === 0 ? "No grace (ends now)" : `${hours} hour${hours === 1 ? "" : "s"}`}
                      </option>
                    ))}
                  </select>
                </div>
                <ActionButton
                  pending={pending}
                  onClick={() => run("rotate", { graceHours: Number(graceHours), expiresInDays: Number(expiresInDays) }, true)}
                  className={SECONDARY_BUTTON_CLASS}
                >
                  Rotate secret
                </ActionButton>
              </>
            ) : (
              <ActionButton pending={pending} onClick={() => run("secret", { expiresInDays: Number(expiresInDays) }, true)} className={SECONDARY_BUTTON_CLASS}>
                Generate secret
              </ActionButton>
            )}
          </>
        )}
        <ActionButton pending={pending} onClick={() => run("dpop", { requireDpop: !requiresDpop }, false, "PUT")} className={SECONDARY_BUTTON_CLASS}>
          {requiresDpop ? "Stop requiring DPoP" : "Require DPoP"}
        </ActionButton>
        <ActionButton pending={pending} onClick={revoke} className={`${SECONDARY_BUTTON_CLASS} text-red-800`}>
          Revoke
        </ActionButton>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
