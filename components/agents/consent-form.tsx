import type { AgentAuthorization } from "@/lib/agents/authorization-request";
import { BUTTON_CLASS, SECONDARY_BUTTON_CLASS } from "@/components/settings/field";

type Props = {
  authorization: AgentAuthorization;
  credentials: { clientId: string; applicationName: string }[];
  ticket: string;
};

/** The consent page's form: a plain HTML form, posted with the signed ticket, that answers with a redirect to the agent. */
export function ConsentForm({ authorization, credentials, ticket }: Props) {
  return (
    <form method="post" action="/api/portal/agents/consent" className="max-w-xl space-y-5">
      <h1 className="text-2xl font-bold">Sign in an AI agent</h1>
      <p className="text-slate-700">
        <strong>{authorization.agentName}</strong>{" "}
        <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold uppercase text-amber-900">unverified</span>
        {authorization.agentHost ? (
          <>
            {" "}
            from <code className="font-mono break-all">{authorization.agentHost}</code>
          </>
        ) : null}{" "}
        asks to call <strong>{authorization.apiName}</strong> in <code className="font-mono">{authorization.envSlug}</code> through its MCP server{" "}
        <code className="font-mono break-all">{authorization.resource}</code>.{" "}
        {authorization.agentHost
          ? "Its name is the one its metadata document on that host gives: Gatehouse has not checked it."
          : "Its name is the one it registered itself with: Gatehouse has not checked it."}
      </p>
      <div>
        <h2 className="font-semibold">Scopes</h2>
        <ul className="list-disc pl-6 font-mono text-sm">
          {authorization.scopes.map((scope) => (
            <li key={scope}>{scope}</li>
          ))}
        </ul>
      </div>
      <input type="hidden" name="ticket" value={ticket} />
      {credentials.length === 0 ? (
        <p role="alert" className="text-slate-700">
          None of your applications has a credential in {authorization.envSlug} with access to {authorization.apiName}. Request access in the portal, then sign
          the agent in again.
        </p>
      ) : (
        <fieldset className="space-y-2">
          <legend className="font-semibold">Act as</legend>
          <p className="text-sm text-slate-700">The agent&apos;s calls count as this credential&apos;s: its usage, quotas and revocation.</p>
          {credentials.map((credential, index) => (
            <label key={credential.clientId} className="flex items-center gap-2">
              <input type="radio" name="credential" value={credential.clientId} defaultChecked={index === 0} />
              <span>
                {credential.applicationName} <code className="font-mono text-sm">{credential.clientId}</code>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <div className="flex gap-3">
        {credentials.length === 0 ? null : (
          <button type="submit" name="decision" value="approve" className={BUTTON_CLASS}>
            Approve
          </button>
        )}
        <button type="submit" name="decision" value="deny" className={SECONDARY_BUTTON_CLASS}>
          Deny
        </button>
      </div>
    </form>
  );
}
