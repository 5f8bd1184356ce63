import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ApiPageHeader } from "@/components/api-page/api-page-header";
import { ApiTabs } from "@/components/api-page/api-tabs";
import { ClientCredentialsTab } from "@/components/api-page/client-credentials-tab";
import { EnvironmentSwitcher } from "@/components/api-page/environment-switcher";
import { parseTab } from "@/components/api-page/hrefs";
import { OverviewTab } from "@/components/api-page/overview-tab";
import { ReferenceTab } from "@/components/api-page/reference-tab";
import { TryItLink } from "@/components/api-page/try-it-link";
import { CredentialTypeBadge } from "@/components/catalog/badges";
import { apiDocument } from "@/lib/catalog/api-document";
import { apiGuides } from "@/lib/catalog/api-guides";
import { bearerSchemeName } from "@/lib/catalog/bearer-scheme";
import { findCatalogApi } from "@/lib/catalog/catalog-api";
import { findFirstCall } from "@/lib/catalog/first-call";
import { apiServerUrl, selectEnvironment, tokenEndpointUrl } from "@/lib/catalog/environment-urls";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { firstParam, type SearchParams } from "@/lib/http/search-params";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ api: string }>;
  searchParams: Promise<SearchParams>;
};

/** One query per request, shared by the metadata and the page. */
const findApi = cache((slug: string, pinnedEnvironment: string | undefined) => findCatalogApi(db(), slug, { pinnedEnvironment }));

async function loadView({ params, searchParams }: Props) {
  const [{ api: slug }, query] = await Promise.all([params, searchParams]);
  const { portalEnvironment } = config();
  const api = await findApi(slug, portalEnvironment);
  const env = api && selectEnvironment(api.environments, firstParam(query.env));
  if (!api || !env) notFound();
  return { api, env, tab: parseTab(query.tab), tryIt: firstParam(query.try) === "1", pinned: portalEnvironment !== undefined };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { api } = await loadView(props);
  return { title: api.name, description: api.summary };
}

export default async function ApiPage(props: Props) {
  const { api, env, tab, tryIt, pinned } = await loadView(props);
  const { publicUrl, portalEnvironment } = config();
  const envParam = pinned ? undefined : env.slug;
  const document = tab === "overview" ? undefined : apiDocument(api, env, publicUrl);
  return (
    <div className="space-y-6">
      <ApiPageHeader api={api} badge={<CredentialTypeBadge type={env.credentialType} />}>
        {!api.isPublic && tab !== "reference" && <TryItLink slug={api.slug} env={envParam} />}
        {pinned ? (
          <p className="text-sm text-slate-700">{`Environment: ${env.name}`}</p>
        ) : (
          <EnvironmentSwitcher slug={api.slug} tab={tab} environments={api.environments} current={env} />
        )}
      </ApiPageHeader>
      <ApiTabs slug={api.slug} current={tab} env={envParam} />
      {tab === "overview" && <OverviewTab api={api} env={env} guides={apiGuides(api, publicUrl)} />}
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
