import Link from "next/link";
import type { CatalogApi, CatalogEnvironment } from "@/lib/catalog/catalog-api";
import { CREDENTIAL_TYPE_LABELS } from "@/lib/catalog/catalog-filter";
import { firstCallCurl, tokenRequestCurl } from "@/lib/catalog/curl-examples";
import { tokenEndpointUrl } from "@/lib/catalog/environment-urls";
import type { FirstCall } from "@/lib/catalog/first-call";
import { CodeExample } from "./code-example";

type Props = { api: CatalogApi; env: CatalogEnvironment; publicUrl: string; firstCall?: FirstCall };

const LINK = "text-blue-800 underline";

export function ClientCredentialsTab({ api, env, publicUrl, firstCall }: Props) {
  const tokenEndpoint = tokenEndpointUrl(publicUrl, env.slug);
  const typeLabel = CREDENTIAL_TYPE_LABELS[env.credentialType];
  return (
    <div className="space-y-8">
      <section aria-labelledby="credentials-environments" className="space-y-3">
        <h2 id="credentials-environments" className="text-xl font-semibold">
          {`Where ${api.name} is available`}
        </h2>
        <ul className="grid gap-3 md:grid-cols-2">
          {api.environments.map((item) => (
            <li
              key={item.slug}
              aria-current={item.slug === env.slug ? "true" : undefined}
              className={`min-w-0 rounded-lg border bg-white p-4 ${item.slug === env.slug ? "border-blue-800" : "border-slate-200"}`}
            >
              <h3 className="font-semibold">{item.name}</h3>
              <dl className="mt-2 space-y-2 text-sm">
                <div>
                  <dt className="font-medium text-slate-600">Credential type</dt>
                  <dd>{CREDENTIAL_TYPE_LABELS[item.credentialType]}</dd>
                </div>
                <div>
                  <dt className="font-medium text-slate-600">Token endpoint</dt>
                  <dd className="break-all font-mono">{tokenEndpointUrl(publicUrl, item.slug)}</dd>
                </div>
                <div>
                  <dt className="font-medium text-slate-600">Getting credentials</dt>
                  <dd>{item.selfService ? "Self-service in Settings" : "Needs an administrator's approval"}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="credentials-how" className="space-y-2">
        <h2 id="credentials-how" className="text-xl font-semibold">
          {`Get ${typeLabel} credentials for ${env.name}`}
        </h2>
        {env.selfService ? (
          <p className="text-slate-800">
            Sign in and create a client ID and secret for {env.name} under{" "}
            <Link href="/settings/credentials" className={LINK}>
              Settings → Client Credentials
            </Link>
            . The secret is shown once, so store it somewhere safe. No account, or need help?{" "}
            <Link href="/contact" className={LINK}>
              Contact Us
            </Link>
            .
          </p>
        ) : (
          <p className="text-slate-800">
            Credentials for {env.name} need an administrator&apos;s approval. Request them from{" "}
            <Link href="/settings/credentials" className={LINK}>
              Settings → Client Credentials
            </Link>{" "}
            or through{" "}
            <Link href="/contact" className={LINK}>
              Contact Us
            </Link>
            ; once approved, you generate the secret yourself in Settings.
          </p>
        )}
      </section>

      <section aria-labelledby="credentials-examples" className="space-y-4">
        <h2 id="credentials-examples" className="text-xl font-semibold">
          {`Try it from a terminal (${env.name})`}
        </h2>
        <p className="text-slate-800">
          Set <code className="font-mono">CLIENT_ID</code> and <code className="font-mono">CLIENT_SECRET</code>, exchange
          them for an access token at <span className="break-all font-mono">{tokenEndpoint}</span>, then put the{" "}
          <code className="font-mono">access_token</code> from the answer in <code className="font-mono">ACCESS_TOKEN</code>.
        </p>
        <CodeExample title="Token request" code={tokenRequestCurl(tokenEndpoint, api.scopes.map((scope) => scope.name))} />
        {firstCall && (
          <CodeExample
            title={firstCall.apiName === api.name ? "First call" : `First call (${firstCall.apiName})`}
            code={firstCallCurl(firstCall.serverUrl, firstCall.path)}
          />
        )}
      </section>
    </div>
  );
}
