import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ConsentForm } from "@/components/agents/consent-form";
import { readAuthorizationRequest } from "@/lib/agents/authorization-request";
import { sealConsentTicket } from "@/lib/agents/consent-ticket";
import { eligibleCredentials } from "@/lib/agents/decide-consent";
import { requireUser } from "@/lib/auth/session";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { type AgentClientDocuments, createAgentClientDocuments, isClientDocumentUrl } from "@/lib/oauth/agent-client-documents";
import { issuerFor } from "@/lib/oauth/issuer";

export const metadata: Metadata = { title: "Sign in an AI agent" };
export const dynamic = "force-dynamic";

let documents: AgentClientDocuments | undefined;

type Props = { params: Promise<{ env: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The authorization endpoint of an environment (RFC 6749 §3.1): the developer lets an agent act as one of their credentials. */
export default async function AuthorizeAgentPage({ params, searchParams }: Props) {
  const { env } = await params;
  const query = await searchParams;
  const { publicUrl, authSecret, outboundAllowPrivate: allowPrivate } = config();
  documents ??= createAgentClientDocuments({ policy: { allowPrivate } });
  const clientDocuments = { fetch: documents, allowPrivate };
  const search = new URLSearchParams(Object.entries(query).flatMap(([name, value]) => (typeof value === "string" ? [[name, value]] : [])));
  const signIn = () => requireUser(`/oauth/${encodeURIComponent(env)}/authorize?${search}`);
  // A client ID metadata document is fetched for a signed-in developer only, so that no anonymous visitor makes the portal fetch URLs.
  const signedInFirst = typeof query.client_id === "string" && isClientDocumentUrl(query.client_id, allowPrivate) ? await signIn() : undefined;
  const outcome = await readAuthorizationRequest({ db: db(), publicUrl, issuer: issuerFor(publicUrl, env), envSlug: env, query, clientDocuments });
  if (outcome.kind === "error") redirect(outcome.redirect);
  if (outcome.kind === "refused") {
    return (
      <div className="max-w-xl space-y-3">
        <h1 className="text-2xl font-bold">This agent cannot sign in</h1>
        <p role="alert" className="text-slate-700">
          {outcome.detail}
        </p>
      </div>
    );
  }
  const user = signedInFirst ?? (await signIn());
  const { authorization } = outcome;
  const credentials = await eligibleCredentials(db(), user.id, authorization);
  return (
    <ConsentForm
      authorization={authorization}
      credentials={credentials.map(({ clientId, applicationName }) => ({ clientId, applicationName }))}
      ticket={sealConsentTicket({ userId: user.id, authorization, authSecret })}
    />
  );
}
