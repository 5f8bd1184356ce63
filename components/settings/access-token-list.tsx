"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { DataTable } from "@/components/data-table";
import { SECONDARY_BUTTON_CLASS } from "./field";
import { portalFetch } from "./portal-fetch";
import { ActionButton } from "@/components/action-button";

type Token = {
  id: string;
  name: string;
  hint: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

function day(iso: string | null): string {
  return iso ? new Date(iso).toUTCString() : "Never";
}

function status(token: Token): string {
  if (token.revokedAt) return "Revoked";
  return new Date(token.expiresAt) <= new Date() ? "Expired" : "Active";
}

export function AccessTokenList({ tokens }: { tokens: Token[] }) {
  const router = useRouter();
  const [error, setError] = useState("");

  async function revoke(token: Token) {
    if (!window.confirm(`Revoke the token "${token.name}"? Scripts that use it stop working at once.`)) return;
    const result = await portalFetch(`/api/portal/tokens/${encodeURIComponent(token.id)}/revoke`, "POST", {});
    setError(result.ok ? "" : result.message);
    router.refresh();
  }

  return (
    <section aria-labelledby="your-tokens" className="space-y-3">
      <h2 id="your-tokens" className="text-lg font-semibold">
        Your tokens
      </h2>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {tokens.length === 0 ? (
        <p className="text-slate-700">You have no access tokens yet.</p>
      ) : (
        <DataTable
          caption="Your access tokens"
          rows={tokens}
          rowKey={(token) => token.id}
          columns={[
            { header: "Name", className: "font-medium", cell: (token) => token.name },
            { header: "Ends in", className: "font-mono", cell: (token) => `…${token.hint}` },
            { header: "Scopes", className: "font-mono", cell: (token) => token.scopes.join(" ") },
            { header: "Status", cell: status },
            { header: "Expires", cell: (token) => day(token.expiresAt) },
            { header: "Last used", cell: (token) => day(token.lastUsedAt) },
            {
              header: "Actions",
              hideHeader: true,
              cell: (token) =>
                status(token) === "Active" ? (
                  <ActionButton onClick={() => revoke(token)} className={SECONDARY_BUTTON_CLASS} aria-label={`Revoke ${token.name}`}>
                    Revoke
                  </ActionButton>
                ) : null,
            },
          ]}
        />
      )}
    </section>
  );
}
