import type { Metadata } from "next";
import { ConnectedAgentList } from "@/components/agents/connected-agent-list";
import { listConnectedAgents } from "@/lib/agents/connected-agents";
import { requireUser } from "@/lib/auth/session";
import { db } from "@/lib/db";

export const metadata: Metadata = { title: "Connected agents" };
export const dynamic = "force-dynamic";

export default async function ConnectedAgentsPage() {
  const user = await requireUser("/settings/agents");
  const agents = await listConnectedAgents({ db: db(), userId: user.id });
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-2xl font-bold">Connected agents</h1>
        <p className="text-slate-700">
          AI agents you signed in through an API&apos;s MCP server. Each acts as the credential you chose, with its scopes. Revoking one ends its refresh tokens
          at once and its access tokens within seconds.
        </p>
      </div>
      <ConnectedAgentList agents={JSON.parse(JSON.stringify(agents))} />
    </div>
  );
}
