import { firstParam } from "@/lib/http/search-params";

export const API_TABS = [
  { id: "overview", label: "Overview" },
  { id: "reference", label: "Reference" },
  { id: "credentials", label: "Client Credentials" },
] as const;

export type ApiTab = (typeof API_TABS)[number]["id"];

export function parseTab(value: string | string[] | undefined): ApiTab {
  const first = firstParam(value);
  return API_TABS.find((tab) => tab.id === first)?.id ?? "overview";
}

/** The API page URL; the environment stays in it unless the deployment is pinned to one. */
export function apiPageHref(slug: string, { tab, env }: { tab: ApiTab; env?: string }): string {
  const params = new URLSearchParams();
  if (tab !== "overview") params.set("tab", tab);
  if (env) params.set("env", env);
  const query = params.toString();
  return `/apis/${slug}${query ? `?${query}` : ""}`;
}
