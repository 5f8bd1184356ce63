"use client";

import { useState } from "react";
import { SECONDARY_BUTTON_CLASS } from "./field";
import { ActionButton } from "@/components/action-button";

export type ShownSecret = { clientId: string; clientSecret: string; expiresAt: string | null; previousSecretValidUntil?: string | null };

/** The only place a plaintext secret is ever rendered: client state from the mutation's response. */
export function SecretOnce({ secret, onDismiss }: { secret: ShownSecret; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);

  async function copy() {
    await navigator.clipboard.writeText(secret.clientSecret).catch(() => undefined);
    setCopied(true);
  }

  return (
    <section aria-label="New client secret" className="space-y-3 rounded-lg border-2 border-amber-500 bg-amber-50 p-4">
      <p role="alert" className="font-semibold text-amber-900">
        Copy this client secret now. It is shown only once and cannot be shown again.
      </p>
      <dl className="grid gap-2 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-4">
        <dt className="font-medium">Client ID</dt>
        <dd>
          <code className="break-all">{secret.clientId}</code>
        </dd>
        <dt className="font-medium">Client secret</dt>
        <dd>
          <code data-testid="client-secret" className="break-all rounded bg-white px-1">
            {secret.clientSecret}
          </code>
        </dd>
        {secret.expiresAt ? (
          <>
            <dt className="font-medium">Expires</dt>
            <dd>{new Date(secret.expiresAt).toUTCString()}</dd>
          </>
        ) : null}
        {secret.previousSecretValidUntil ? (
          <>
            <dt className="font-medium">Previous secret valid until</dt>
            <dd>{new Date(secret.previousSecretValidUntil).toUTCString()}</dd>
          </>
        ) : null}
      </dl>
      <div className="flex gap-2">
        <ActionButton onClick={copy} className={SECONDARY_BUTTON_CLASS}>
          {copied ? "Copied" : "Copy secret"}
        </ActionButton>
        <ActionButton onClick={onDismiss} className={SECONDARY_BUTTON_CLASS}>
          I have stored it
        </ActionButton>
      </div>
    </section>
  );
}
