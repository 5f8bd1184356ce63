import "server-only";
import { createHash } from "node:crypto";
import { OutboundError, type OutboundPolicy, outboundRequest } from "../outbound/outbound-request";
import { agentClientDocumentSchema } from "./agent-schemas";

/** The size the client ID metadata document draft suggests bounding a document to. */
export const MAX_CLIENT_DOCUMENT_BYTES = 5 * 1024;
/** A document is kept as long as its Cache-Control max-age says, at most this long; this long when it says nothing. */
export const MAX_CLIENT_DOCUMENT_CACHE_SECONDS = 3600;
export const DEFAULT_CLIENT_DOCUMENT_CACHE_SECONDS = 300;
/** A document that could not be used is asked for again only after this, so a page view cannot make the portal fetch on each load. */
const FAILURE_CACHE_SECONDS = 60;
const MAX_KEPT_DOCUMENTS = 1_000;

/** What a client ID metadata document registers: its name (unverified) and its redirect URIs. */
export type AgentClientDocument = { ok: true; name: string; host: string; redirectUris: string[] } | { ok: false; detail: string };

/**
 * Whether a client_id names a client ID metadata document: an https URL with a path, without
 * fragment, credentials or dot segments (draft-ietf-oauth-client-id-metadata-document §3).
 * Plain http only with OUTBOUND_ALLOW_PRIVATE, as every outbound fetch.
 */
export function isClientDocumentUrl(clientId: string, allowPrivate: boolean): boolean {
  if (!URL.canParse(clientId)) return false;
  const url = new URL(clientId);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && allowPrivate)) return false;
  if (url.username || url.password || clientId.includes("#")) return false;
  if (url.pathname === "/" || url.href !== clientId) return false;
  return !url.pathname.split("/").some((segment) => segment === "." || segment === "..");
}

/** Whether a client_id is an agent's: `agc_…` from registration, or the URL of a client ID metadata document. */
export function isAgentClientId(clientId: string | undefined): boolean {
  return clientId !== undefined && (clientId.startsWith("agc_") || URL.canParse(clientId));
}

/**
 * The stored agent row of a document's client in an environment: its client_id (a URL) is
 * not the row's key, so two environments keep apart rows for one document.
 */
export function agentRowIdOf(clientId: string, environmentId: string): string {
  if (!URL.canParse(clientId)) return clientId;
  return `agm_${createHash("sha256").update(`${environmentId}\n${clientId}`).digest("base64url")}`;
}

function maxAgeSeconds(cacheControl: string | string[] | undefined): number {
  const value = Array.isArray(cacheControl) ? cacheControl.join(",") : (cacheControl ?? "");
  if (/(^|,)\s*(no-store|no-cache)\b/i.test(value)) return 0;
  const maxAge = /(?:^|,)\s*max-age=(\d+)/i.exec(value)?.[1];
  return Math.min(maxAge === undefined ? DEFAULT_CLIENT_DOCUMENT_CACHE_SECONDS : Number(maxAge), MAX_CLIENT_DOCUMENT_CACHE_SECONDS);
}

async function fetchDocument(url: string, policy: OutboundPolicy): Promise<{ document: AgentClientDocument; keepSeconds: number }> {
  const refused = (detail: string) => ({ document: { ok: false as const, detail }, keepSeconds: FAILURE_CACHE_SECONDS });
  let response: Awaited<ReturnType<typeof outboundRequest>>;
  try {
    response = await outboundRequest(url, { ...policy, maxBytes: MAX_CLIENT_DOCUMENT_BYTES }, { headers: { accept: "application/json" } });
  } catch (error) {
    if (error instanceof OutboundError) return refused(`The client's metadata document could not be fetched: ${error.message}.`);
    throw error;
  }
  if (response.status !== 200) return refused(`The client's metadata document answered ${response.status}.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body.toString("utf8"));
  } catch {
    return refused("The client's metadata document is not JSON.");
  }
  const document = agentClientDocumentSchema.safeParse(parsed);
  if (!document.success) {
    const issue = document.error.issues[0]!;
    return refused(`The client's metadata document is refused: its field ${issue.path.map(String).join(".") || "body"} ${issue.message.toLowerCase()}.`);
  }
  if (document.data.client_id !== url) return refused("The client's metadata document names another client_id than its own URL.");
  const { host } = new URL(url);
  return {
    document: { ok: true, name: document.data.client_name ?? host, host, redirectUris: document.data.redirect_uris },
    keepSeconds: maxAgeSeconds(response.headers["cache-control"]),
  };
}

/**
 * Client ID metadata documents, fetched under the outbound policy with a 5 KiB bound, and kept
 * as their Cache-Control allows (capped) in a bounded map, the oldest entry leaving first.
 */
export function createAgentClientDocuments(input: { policy: OutboundPolicy; maxEntries?: number }) {
  const maxEntries = input.maxEntries ?? MAX_KEPT_DOCUMENTS;
  const kept = new Map<string, { document: Promise<AgentClientDocument>; expiresAt: number }>();

  return function clientDocument(url: string): Promise<AgentClientDocument> {
    const now = Date.now();
    const entry = kept.get(url);
    if (entry && entry.expiresAt > now) return entry.document;
    kept.delete(url);
    if (kept.size >= maxEntries) kept.delete(kept.keys().next().value!);
    const fetched = fetchDocument(url, input.policy);
    // Until it answers, concurrent views share the one fetch.
    const slot = { document: fetched.then((each) => each.document), expiresAt: Number.POSITIVE_INFINITY };
    kept.set(url, slot);
    fetched.then(
      ({ keepSeconds }) => {
        slot.expiresAt = Date.now() + keepSeconds * 1000;
      },
      () => kept.get(url) === slot && kept.delete(url),
    );
    return slot.document;
  };
}

export type AgentClientDocuments = ReturnType<typeof createAgentClientDocuments>;
