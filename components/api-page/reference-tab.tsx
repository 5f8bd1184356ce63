import { Link } from "@/components/link";
import { SwaggerReference } from "@/components/swagger/swagger-reference";
import type { CatalogApi, CatalogEnvironment } from "@/lib/catalog/catalog-api";
import { hasDeprecatedOperations, withoutDeprecatedOperations } from "@/lib/catalog/catalog-versions";
import { firstGetOperation, listOperations } from "@/lib/catalog/operations";
import { apiPageHref } from "./hrefs";
import { OperationSamples } from "./operation-samples";
import { ReferenceInstructions } from "./reference-instructions";
import { SpecLinks, specQuery } from "./spec-links";
import { TestTokenSlot } from "./test-token-slot";

type Props = {
  api: CatalogApi;
  env: CatalogEnvironment;
  spec: Record<string, unknown>;
  serverUrl: string;
  tokenEndpoint: string;
  bearerScheme?: string;
  envParam?: string;
  /** the visitor asked to try the API: apply their test token and open the first call */
  tryIt: boolean;
  /** the visitor chose to leave deprecated operations out */
  hideDeprecated: boolean;
};

export function ReferenceTab({ api, env, spec: fullSpec, serverUrl, tokenEndpoint, bearerScheme, envParam, tryIt, hideDeprecated }: Props) {
  const spec = hideDeprecated ? withoutDeprecatedOperations(fullSpec) : fullSpec;
  const operations = listOperations(spec);
  const first = firstGetOperation(spec) ?? operations[0];
  return (
    <div className="space-y-4">
      <h2 className="sr-only">Reference</h2>
      {bearerScheme ? (
        <ReferenceInstructions envName={env.name} />
      ) : (
        <p className="text-slate-800">{`Calls go to the ${env.name} gateway. This API is public: no access token is needed.`}</p>
      )}
      <TestTokenSlot api={api} env={env} envParam={envParam} autoApply={tryIt} />
      {hasDeprecatedOperations(fullSpec) ? (
        <p className="text-sm">
          <Link
            href={apiPageHref(api.slug, { tab: "reference", env: envParam, version: api.versionParam, hideDeprecated: !hideDeprecated })}
            className="text-blue-800 underline"
          >
            {hideDeprecated ? "Show deprecated operations" : "Hide deprecated operations"}
          </Link>
        </p>
      ) : null}
      <noscript>
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
          The interactive reference needs JavaScript. Without it, download the OpenAPI document below.
        </p>
      </noscript>
      <SwaggerReference
        key={`${api.slug}/${env.slug}/${api.versionParam ?? ""}/${hideDeprecated}`}
        specUrl={`/apis/${api.slug}/openapi.json${specQuery(env, api.versionParam, hideDeprecated)}`}
        operationCount={operations.length}
        serverUrl={serverUrl}
        bearerScheme={bearerScheme}
        expandOperation={tryIt && first?.operationId ? { tag: first.tag, operationId: first.operationId } : undefined}
      />
      <SpecLinks slug={api.slug} env={env} version={api.versionParam} />
      {bearerScheme ? (
        <OperationSamples operations={operations} tokenEndpoint={tokenEndpoint} serverUrl={serverUrl} envName={env.name} acceptsApiKeys={api.acceptsApiKeys} />
      ) : null}
    </div>
  );
}
