"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { DataTable } from "@/components/data-table";
import { ApiKeyOnce, type ShownApiKey } from "./api-key-once";
import { SECONDARY_BUTTON_CLASS } from "./field";
import { portalFetch } from "./portal-fetch";
import { ActionButton } from "@/components/action-button";

type Key = {
  id: string;
  hint: string;
  application: string;
  environment: string;
  state: "active" | "expired" | "revoked";
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
};

/** How long the old key keeps working after a roll; the service allows up to 30 days. */
const OVERLAP_CHOICES = [
  { value: "0s", label: "Stop it now" },
  { value: "1h", label: "1 hour" },
  { value: "24h", label: "24 hours" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
];

function day(iso: string | null, none: string): string {
  return iso ? new Date(iso).toUTCString() : none;
}

export function ApiKeyList({ keys }: { keys: Key[] }) {
  const router = useRouter();
  const [error, setError] = useState("");
  const [rolled, setRolled] = useState<ShownApiKey | null>(null);
  const [overlap, setOverlap] = useState("24h");
  const label = (key: Key) => `…${key.hint} (${key.application}, ${key.environment})`;

  async function roll(key: Key) {
    const result = await portalFetch<ShownApiKey>(`/api/portal/keys/${encodeURIComponent(key.id)}/roll`, "POST", { overlap });
    setError(result.ok ? "" : result.message);
    if (result.ok) setRolled(result.data);
    router.refresh();
  }

  async function revoke(key: Key) {
    const last = !keys.some(
      (other) => other.id !== key.id && other.state === "active" && other.application === key.application && other.environment === key.environment,
    );
    const question = last
      ? `The key ${label(key)} is the last active key of ${key.application} in ${key.environment}. Revoke it anyway? Its callers stop working at once and no key is left.`
      : `Revoke the key ${label(key)}? Its callers stop working at once.`;
    if (!window.confirm(question)) return;
    const result = await portalFetch(`/api/portal/keys/${encodeURIComponent(key.id)}/revoke`, "POST", { last });
    setError(result.ok ? "" : result.message);
    router.refresh();
  }

  return (
    <section aria-labelledby="your-keys" className="space-y-3">
      <h2 id="your-keys" className="text-lg font-semibold">
        Your keys
      </h2>
      {rolled ? <ApiKeyOnce shown={rolled} onDismiss={() => setRolled(null)} /> : null}
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {keys.length === 0 ? (
        <p className="text-slate-700">Your teams&apos; applications have no API keys yet.</p>
      ) : (
        <>
          <label className="flex items-center gap-2 text-sm">
            After a roll, the old key keeps working for
            <select value={overlap} onChange={(event) => setOverlap(event.target.value)} className="rounded border border-slate-400 bg-white px-2 py-1">
              {OVERLAP_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
          <DataTable
            caption="Your teams' API keys"
            rows={keys}
            rowKey={(key) => key.id}
            columns={[
              { header: "Application", className: "font-medium", cell: (key) => key.application },
              { header: "Environment", cell: (key) => key.environment },
              { header: "Ends in", className: "font-mono", cell: (key) => `…${key.hint}` },
              { header: "Status", cell: (key) => key.state[0]!.toUpperCase() + key.state.slice(1) },
              { header: "Expires", cell: (key) => day(key.expiresAt, "Never") },
              { header: "Last used", cell: (key) => day(key.lastUsedAt, "Never") },
              {
                header: "Actions",
                hideHeader: true,
                cell: (key) =>
                  key.state === "active" ? (
                    <div className="flex gap-2">
                      <ActionButton onClick={() => roll(key)} className={SECONDARY_BUTTON_CLASS} aria-label={`Roll ${label(key)}`}>
                        Roll
                      </ActionButton>
                      <ActionButton onClick={() => revoke(key)} className={SECONDARY_BUTTON_CLASS} aria-label={`Revoke ${label(key)}`}>
                        Revoke
                      </ActionButton>
                    </div>
                  ) : null,
              },
            ]}
          />
        </>
      )}
    </section>
  );
}
