"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { BUTTON_CLASS, Field, INPUT_CLASS, SECONDARY_BUTTON_CLASS } from "@/components/settings/field";
import { portalFetch } from "@/components/settings/portal-fetch";
import { ActionButton } from "@/components/action-button";

export function RequestDecision({ id }: { id: string }) {
  const router = useRouter();
  const [reason, setReason] = useState("");
  const [rejecting, setRejecting] = useState(false);
  const [error, setError] = useState({ message: "", reason: "" });
  const [pending, setPending] = useState(false);
  const base = `/api/portal/admin/requests/${encodeURIComponent(id)}`;

  async function decide(path: "approve" | "reject") {
    setPending(true);
    const result = await portalFetch(`${base}/${path}`, "POST", path === "reject" ? { reason } : {});
    setPending(false);
    if (!result.ok) return setError({ message: result.message, reason: result.fieldErrors.reason ?? "" });
    router.refresh();
  }

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        <ActionButton pending={pending} onClick={() => decide("approve")} className={BUTTON_CLASS}>
          Approve
        </ActionButton>
        {rejecting ? null : (
          <ActionButton pending={pending} onClick={() => setRejecting(true)} className={SECONDARY_BUTTON_CLASS}>
            Reject…
          </ActionButton>
        )}
      </div>
      {rejecting ? (
        <div className="space-y-2">
          <Field id={`reason-${id}`} label="Reason for rejecting" error={error.reason}>
            <textarea
              id={`reason-${id}`}
              aria-describedby={error.reason ? `reason-${id}-error` : undefined}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              rows={2}
              maxLength={1000}
              className={INPUT_CLASS}
            />
          </Field>
          <ActionButton pending={pending} onClick={() => decide("reject")} className={SECONDARY_BUTTON_CLASS}>
            Reject request
          </ActionButton>
        </div>
      ) : null}
      {error.message ? (
        <p role="alert" className="text-red-700">
          {error.message}
        </p>
      ) : null}
    </div>
  );
}
