import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ApiPageHeader } from "@/components/api-page/api-page-header";
import { AgentsTab } from "@/components/api-page/agents-tab";
import { ApiTabs } from "@/components/api-page/api-tabs";
import { ClientCredentialsTab } from "@/components/api-page/client-credentials-tab";
import { EnvironmentSwitcher } from "@/components/api-page/environment-switcher";
import { API_TABS, apiPageHref, parseTab } from "@/components/api-page/hrefs";
import { OverviewTab } from "@/components/api-page/overview-tab";
import { ReferenceTab } from "@/components/api-page/reference-tab";
import { TryItLink } from "@/components/api-page/try-it-link";
import { VersionNotice, VersionSwitcher } from "@/components/api-page/version-switcher";
import { CredentialTypeBadge } from "@/components/catalog/badges";
import { PlansSection } from "@/components/subscriptions/plans-section";
import { currentUser } from "@/lib/auth/session";
import { listPlans, subscribableApplications } from "@/lib/subscriptions/list-subscriptions";
import { apiDocument } from "@/lib/catalog/api-document";
import { apiGuides } from "@/lib/catalog/api-guides";
import { bearerSchemeName } from "@/lib/catalog/bearer-scheme";
import { catalogVersionDocuments, findCatalogApi } from "@/lib/catalog/catalog-api";
import { findFirstCall } from "@/lib/catalog/first-call";
import { apiServerUrl, selectEnvironment, tokenEndpointUrl } from "@/lib/catalog/environment-urls";
import { defaultVersion } from "@/lib/api-lifecycle/versions";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { firstParam, type SearchParams } from "@/lib/http/search-params";
import { storedMcpSettings } from "@/lib/gateway/mcp/settings";
import { deriveTools } from "@/lib/gateway/mcp/tools";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ api: string }>;
  searchParams: Promise<SearchParams>;
};

/** One query per request, shared by the metadata and the page. */
const findApi = cache((slug: string, pinnedEnvironment: string | undefined, version: string | undefined) =>
  findCatalogApi(db(), slug, { pinnedEnvironment }, version),
);

async function loadView({ params, searchParams }: Props) {
  const [{ api: slug }, query] = await Promise.all([params, searchParams]);
  const { portalEnvironment } = config();
  const api = await findApi(slug, portalEnvironment, firstParam(query.version));
  const env = api && selectEnvironment(api.environments, firstParam(query.env));
  if (!api || !env) notFound();
  const tab = parseTab(query.tab);
  return {
    api,
    env,
    // The AI agents tab is there only while the API serves MCP.
    tab: tab === "agents" && !api.mcpEnabled ? "overview" : tab,
    tryIt: firstParam(query.try) === "1",
    hideDeprecated: firstParam(query.deprecated) === "hide",
    pinned: portalEnvironment !== undefined,
  };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { api } = await loadView(props);
  return { title: api.name, description: api.summary };
}

export default async function ApiPage(props: Props) {
  const { api, env, tab, tryIt, hideDeprecated, pinned } = await loadView(props);
  const { publicUrl, portalEnvironment } = config();
  const envParam = pinned ? undefined : env.slug;
  const document = tab === "overview" ? undefined : apiDocument(api, env, publicUrl);
  const shown = api.shownVersion;
  const byDefault = defaultVersion(api.versions);
  const plans = tab === "overview" ? await listPlans({ db: db(), apiSlug: api.slug }) : [];
  const user = plans.length > 0 ? await currentUser() : null;
  const successor = byDefault && byDefault !== shown ? { version: byDefault.version, href: apiPageHref(api.slug, { tab, env: envParam }) } : undefined;
  return (
    <div className="space-y-6">
      <ApiPageHeader api={api} badge={<CredentialTypeBadge type={env.credentialType} />}>
        {!api.isPublic && tab !== "reference" && <TryItLink slug={api.slug} env={envParam} version={api.versionParam} />}
        {pinned ? (
          <p className="text-sm text-slate-700">{`Environment: ${env.name}`}</p>
        ) : (
          <EnvironmentSwitcher slug={api.slug} tab={tab} version={api.versionParam} environments={api.environments} current={env} />
        )}
        {shown && byDefault && api.versions.length > 1 ? (
          <VersionSwitcher slug={api.slug} tab={tab} env={envParam} versions={api.versions} shown={shown} defaultVersion={byDefault.version} />
        ) : null}
        {shown ? <VersionNotice shown={shown} successor={successor} /> : null}
      </ApiPageHeader>
      <ApiTabs
        slug={api.slug}
        current={tab}
        env={envParam}
        version={api.versionParam}
        tabs={api.mcpEnabled ? API_TABS : API_TABS.filter((each) => each.id !== "agents")}
      />
      {tab === "overview" && (
        <OverviewTab
          api={api}
          env={env}
          guides={apiGuides(api, publicUrl)}
          versionDocuments={api.versions.length > 1 ? await catalogVersionDocuments(db(), api.slug) : []}
        />
      )}
      {plans.length > 0 && (
        <PlansSection
          api={api.slug}
          plans={plans}
          applications={user ? await subscribableApplications(db(), user) : null}
          environments={api.environments.map(({ slug, name }) => ({ slug, name }))}
          environment={env.slug}
          signInHref={`/login?callbackUrl=${encodeURIComponent(apiPageHref(api.slug, { tab, env: envParam }))}`}
        />
      )}
      {tab === "reference" && document && (
        <ReferenceTab
          api={api}
          env={env}
          spec={document}
          serverUrl={apiServerUrl(publicUrl, api, env.slug)}
          tokenEndpoint={tokenEndpointUrl(publicUrl, env.slug)}
          bearerScheme={api.isPublic ? undefined : bearerSchemeName(document)}
          envParam={envParam}
          tryIt={tryIt}
          hideDeprecated={hideDeprecated}
        />
      )}
      {tab === "agents" && document && (
        <AgentsTab
          api={api}
          env={env}
          publicUrl={publicUrl}
          tools={deriveTools(document as Record<string, unknown>, storedMcpSettings(api.mcp), { deprecation: undefined, operations: new Map() }).map(
            (tool) => ({ name: tool.name, description: tool.description, readOnly: tool.annotations.readOnlyHint }),
          )}
        />
      )}
      {tab === "credentials" && document && (
        <ClientCredentialsTab
          api={api}
          env={env}
          envParam={envParam}
          publicUrl={publicUrl}
          firstCall={await findFirstCall(db(), { api, env, document, publicUrl, pinnedEnvironment: portalEnvironment })}
        />
      )}
    </div>
  );
}
