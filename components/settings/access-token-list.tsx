"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { SECONDARY_BUTTON_CLASS } from "./field";
import { portalFetch } from "./portal-fetch";

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
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-300">
                <th scope="col" className="py-2 pr-4">
                  Name
                </th>
                <th scope="col" className="py-2 pr-4">
                  Ends in
                </th>
                <th scope="col" className="py-2 pr-4">
                  Scopes
                </th>
                <th scope="col" className="py-2 pr-4">
                  Status
                </th>
                <th scope="col" className="py-2 pr-4">
                  Expires
                </th>
                <th scope="col" className="py-2 pr-4">
                  Last used
                </th>
                <th scope="col" className="py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <tr key={token.id} className="border-b border-slate-200 align-top">
                  <td className="py-2 pr-4 font-medium">{token.name}</td>
                  <td className="py-2 pr-4 font-mono">…{token.hint}</td>
                  <td className="py-2 pr-4 font-mono">{token.scopes.join(" ")}</td>
                  <td className="py-2 pr-4">{status(token)}</td>
                  <td className="py-2 pr-4">{day(token.expiresAt)}</td>
                  <td className="py-2 pr-4">{day(token.lastUsedAt)}</td>
                  <td className="py-2">
                    {status(token) === "Active" ? (
                      <button type="button" onClick={() => revoke(token)} className={SECONDARY_BUTTON_CLASS} aria-label={`Revoke ${token.name}`}>
                        Revoke
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
