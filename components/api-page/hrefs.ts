import { firstParam } from "@/lib/http/search-params";

export const API_TABS = [
  { id: "overview", label: "Overview" },
  { id: "reference", label: "Reference" },
  { id: "credentials", label: "Client Credentials" },
  { id: "agents", label: "AI agents" },
] as const;

export type ApiTab = (typeof API_TABS)[number]["id"];

export function parseTab(value: string | string[] | undefined): ApiTab {
  const first = firstParam(value);
  return API_TABS.find((tab) => tab.id === first)?.id ?? "overview";
}

/**
 * The API page URL; the environment stays in it unless the deployment is pinned to one, and
 * the version when it is not the one shown by default.
 * `tryIt` marks the Reference visit of someone who asked to try the API: it applies their test token at once;
 * `hideDeprecated` leaves the deprecated operations out of the Reference.
 */
export function apiPageHref(
  slug: string,
  { tab, env, version, tryIt, hideDeprecated }: { tab: ApiTab; env?: string; version?: string; tryIt?: boolean; hideDeprecated?: boolean },
): string {
  const params = new URLSearchParams();
  if (tab !== "overview") params.set("tab", tab);
  if (env) params.set("env", env);
  if (version) params.set("version", version);
  if (tryIt) params.set("try", "1");
  if (hideDeprecated) params.set("deprecated", "hide");
  const query = params.toString();
  return `/apis/${slug}${query ? `?${query}` : ""}`;
}

/** The sign-in page, coming back to `returnTo`. */
export function signInHref(returnTo: string): string {
  return `/login?callbackUrl=${encodeURIComponent(returnTo)}`;
}
