"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { DataTable } from "@/components/data-table";
import { SECONDARY_BUTTON_CLASS } from "@/components/settings/field";
import { portalFetch } from "@/components/settings/portal-fetch";
import { ActionButton } from "@/components/action-button";

type Agent = {
  id: string;
  agentName: string;
  agentHost: string | null;
  api: string;
  environment: string;
  clientId: string;
  applicationName: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
};

function day(iso: string | null): string {
  return iso ? new Date(iso).toUTCString() : "Never";
}

export function ConnectedAgentList({ agents }: { agents: Agent[] }) {
  const router = useRouter();
  const [error, setError] = useState("");

  async function revoke(agent: Agent) {
    if (!window.confirm(`Revoke "${agent.agentName}"? It stops calling the ${agent.api} at once.`)) return;
    const result = await portalFetch(`/api/portal/agents/${encodeURIComponent(agent.id)}/revoke`, "POST", {});
    setError(result.ok ? "" : result.message);
    router.refresh();
  }

  return (
    <section className="space-y-3">
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {agents.length === 0 ? (
        <p className="text-slate-700">No agent acts as you.</p>
      ) : (
        <DataTable
          caption="Your connected agents"
          rows={agents}
          rowKey={(agent) => agent.id}
          columns={[
            {
              header: "Agent",
              className: "font-medium",
              cell: (agent) => (agent.agentHost ? `${agent.agentName} (unverified) from ${agent.agentHost}` : `${agent.agentName} (unverified)`),
            },
            { header: "API", cell: (agent) => agent.api },
            { header: "Environment", className: "font-mono", cell: (agent) => agent.environment },
            { header: "Credential", cell: (agent) => `${agent.applicationName} · ${agent.clientId}` },
            { header: "Scopes", className: "font-mono", cell: (agent) => agent.scopes.join(" ") },
            { header: "Connected", cell: (agent) => day(agent.createdAt) },
            { header: "Last used", cell: (agent) => day(agent.lastUsedAt) },
            {
              header: "Actions",
              hideHeader: true,
              cell: (agent) => (
                <ActionButton onClick={() => revoke(agent)} className={SECONDARY_BUTTON_CLASS} aria-label={`Revoke ${agent.agentName}`}>
                  Revoke
                </ActionButton>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
