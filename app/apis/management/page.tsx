import type { Metadata } from "next";
import { Link } from "@/components/link";
import { ApiPageHeader } from "@/components/api-page/api-page-header";
import { ApiTabs } from "@/components/api-page/api-tabs";
import { API_TABS, parseTab } from "@/components/api-page/hrefs";
import { SwaggerReference } from "@/components/swagger/swagger-reference";
import { managementListing } from "@/lib/management-api/management-listing";
import { MANAGEMENT_API_SLUG } from "@/lib/catalog/management-slug";
import { config } from "@/lib/config";
import type { SearchParams } from "@/lib/http/search-params";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Gatehouse Management API" };

/** It has no environments and takes no client credentials: Overview and Reference only. */
const TABS = API_TABS.filter((tab) => tab.id !== "credentials");

/** The management API's page: served by the portal itself at /api/v1 and called with a personal access token. */
export default async function ManagementApiPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const tab = parseTab((await searchParams).tab) === "reference" ? "reference" : "overview";
  const api = managementListing(config().publicUrl);
  const tokenHint = (
    <>
      It authenticates with a personal access token from{" "}
      <Link href="/settings/tokens" className="text-blue-800 underline">
        Settings → Access tokens
      </Link>
      , sent as <code>Authorization: Bearer gpat_…</code>. It has no environments, client credentials or test tokens.
    </>
  );
  return (
    <div className="space-y-6">
      <ApiPageHeader
        api={api}
        badge={<span className="rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-semibold text-indigo-900">{api.authentication}</span>}
      />
      <ApiTabs slug={MANAGEMENT_API_SLUG} current={tab} tabs={TABS} />
      {tab === "overview" ? (
        <div className="max-w-3xl space-y-6">
          <section aria-labelledby="management-description" className="space-y-2">
            <h2 id="management-description" className="text-xl font-semibold">
              Description
            </h2>
            <p>{api.description}</p>
            <p>{tokenHint}</p>
            <p>
              Calls go to <code>{api.serverUrl}</code>.
            </p>
          </section>
          <section aria-labelledby="management-scopes" className="space-y-2">
            <h2 id="management-scopes" className="text-xl font-semibold">
              Scopes
            </h2>
            <ul className="space-y-1">
              {api.scopes.map(([scope, text]) => (
                <li key={scope}>
                  <code>{scope}</code>: {text}
                </li>
              ))}
            </ul>
          </section>
        </div>
      ) : (
        <div className="space-y-4">
          <h2 className="sr-only">Reference</h2>
          <p className="text-slate-800">
            {tokenHint} Choose Authorize and paste the token; calls go to <code>{api.serverUrl}</code>.
          </p>
          <SwaggerReference specUrl="/api/v1/openapi.json" operationCount={api.operations.length} serverUrl={api.serverUrl} bearerScheme="accessToken" />
          <p className="text-sm text-slate-700">
            OpenAPI document:{" "}
            <a href="/api/v1/openapi.json" className="text-blue-800 underline">
              JSON
            </a>
          </p>
        </div>
      )}
    </div>
  );
}
