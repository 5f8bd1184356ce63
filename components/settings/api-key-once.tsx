"use client";

import { SECONDARY_BUTTON_CLASS } from "./field";
import { ActionButton } from "@/components/action-button";

export type ShownApiKey = { key: string; apiKey: { application: string; environment: string }; previous?: { expiresAt: string | null } };

/** The only place an API key is ever rendered: client state from the create or roll answer. */
export function ApiKeyOnce({ shown, onDismiss }: { shown: ShownApiKey; onDismiss: () => void }) {
  return (
    <section aria-label="New API key" className="space-y-3 rounded-lg border-2 border-amber-500 bg-amber-50 p-4">
      <p role="alert" className="font-semibold text-amber-900">
        Copy this API key now. It is shown only once and cannot be shown again.
      </p>
      <p className="text-sm">
        {shown.apiKey.application} in {shown.apiKey.environment}
      </p>
      <code data-testid="api-key" className="block break-all rounded bg-white px-1 text-sm">
        {shown.key}
      </code>
      {shown.previous?.expiresAt ? <p className="text-sm">The previous key keeps working until {new Date(shown.previous.expiresAt).toUTCString()}.</p> : null}
      <ActionButton onClick={onDismiss} className={SECONDARY_BUTTON_CLASS}>
        I have stored it
      </ActionButton>
    </section>
  );
}
