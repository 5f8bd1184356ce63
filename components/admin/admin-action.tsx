"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { SECONDARY_BUTTON_CLASS } from "@/components/settings/field";
import { portalFetch } from "@/components/settings/portal-fetch";
import { ActionButton } from "@/components/action-button";

/** One button that posts a fixed body to an admin route, optionally after a confirmation. */
export function AdminAction({ action, body = {}, label, confirm }: { action: string; body?: unknown; label: string; confirm?: string }) {
  const router = useRouter();
  const [error, setError] = useState("");
  const [pending, setPending] = useState(false);

  async function run() {
    if (confirm && !window.confirm(confirm)) return;
    setPending(true);
    const result = await portalFetch(action, "POST", body);
    setPending(false);
    setError(result.ok ? "" : (Object.values(result.fieldErrors)[0] ?? result.message));
    router.refresh();
  }

  return (
    <span className="inline-flex flex-col gap-1">
      <ActionButton pending={pending} onClick={run} className={SECONDARY_BUTTON_CLASS}>
        {label}
      </ActionButton>
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}
