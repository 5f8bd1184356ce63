"use client";

import { useEffect, useRef, useState } from "react";
import { authorizeReference } from "@/components/swagger/authorize-event";
import { INPUT_CLASS, SECONDARY_BUTTON_CLASS } from "./field";
import { portalFetch } from "./portal-fetch";
import { ActionButton } from "@/components/action-button";

type Candidate = { clientId: string; application: string };

/**
 * Mints a 15-minute token on the server and hands it to Swagger UI's Authorize in one click;
 * with `autoApply` (the visitor asked to try the API) for the first credential at once.
 */
export function TestTokenButton({ candidates, autoApply = false }: { candidates: Candidate[]; autoApply?: boolean }) {
  const [clientId, setClientId] = useState(candidates[0]!.clientId);
  const [status, setStatus] = useState({ text: "", ok: true });
  const [pending, setPending] = useState(false);

  async function applyToken() {
    setPending(true);
    const result = await portalFetch<{ accessToken: string; expiresIn: number }>(
      `/api/portal/credentials/${encodeURIComponent(clientId)}/test-token`,
      "POST",
      {},
    );
    setPending(false);
    if (!result.ok) return setStatus({ text: Object.values(result.fieldErrors)[0] ?? result.message, ok: false });
    authorizeReference(result.data.accessToken);
    setStatus({ text: `Test token applied; it expires in ${Math.round(result.data.expiresIn / 60)} minutes.`, ok: true });
  }

  const applied = useRef(false);
  useEffect(() => {
    if (!autoApply || applied.current) return;
    applied.current = true;
    void applyToken();
  });

  return (
    <div className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3">
      <div className="space-y-1">
        <label htmlFor="test-token-credential" className="block text-sm font-medium">
          Credential
        </label>
        <select id="test-token-credential" value={clientId} onChange={(event) => setClientId(event.target.value)} className={INPUT_CLASS}>
          {candidates.map((candidate) => (
            <option key={candidate.clientId} value={candidate.clientId}>
              {candidate.application} ({candidate.clientId})
            </option>
          ))}
        </select>
      </div>
      <ActionButton pending={pending} onClick={applyToken} className={SECONDARY_BUTTON_CLASS}>
        Use a test token
      </ActionButton>
      {status.text ? (
        <p role={status.ok ? "status" : "alert"} className={`w-full text-sm ${status.ok ? "text-green-800" : "text-red-700"}`}>
          {status.text}
        </p>
      ) : null}
    </div>
  );
}
