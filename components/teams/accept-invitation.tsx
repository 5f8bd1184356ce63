"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { BUTTON_CLASS } from "../settings/field";
import { portalFetch } from "../settings/portal-fetch";
import { ActionButton } from "@/components/action-button";

/** Reads the token from the page's own address, so it is not written into the page's HTML a second time. */
export function AcceptInvitation({ teamName }: { teamName: string }) {
  const router = useRouter();
  const [error, setError] = useState("");
  const [pending, setPending] = useState(false);

  async function accept() {
    setPending(true);
    const token = window.location.pathname.split("/").pop() ?? "";
    const result = await portalFetch(`/api/portal/teams/invitations/${token}/accept`, "POST");
    setPending(false);
    if (!result.ok) return setError(result.message);
    router.push("/settings/teams");
  }

  return (
    <div className="space-y-2">
      <ActionButton pending={pending} onClick={() => void accept()} className={BUTTON_CLASS}>
        Join {teamName}
      </ActionButton>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
