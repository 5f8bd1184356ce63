import type { CatalogApi, CatalogEnvironment } from "@/lib/catalog/catalog-api";
import { CREDENTIAL_TYPE_LABELS } from "@/lib/catalog/catalog-filter";
import { tokenEndpointUrl } from "@/lib/catalog/environment-urls";
import type { FirstCall } from "@/lib/catalog/first-call";
import { CodeSamples } from "./code-samples";
import { MyCredentials } from "./my-credentials";

type Props = { api: CatalogApi; env: CatalogEnvironment; envParam?: string; publicUrl: string; firstCall?: FirstCall };

export function ClientCredentialsTab({ api, env, envParam, publicUrl, firstCall }: Props) {
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

      <section aria-labelledby="credentials-mine" className="space-y-3">
        <h2 id="credentials-mine" className="text-xl font-semibold">
          {`Your ${typeLabel} credentials for ${env.name}`}
        </h2>
        <MyCredentials
          api={api}
          env={env}
          envParam={envParam}
          call={firstCall ? { tokenEndpoint, serverUrl: firstCall.serverUrl, operation: firstCall.operation } : undefined}
        />
      </section>

      <section aria-labelledby="credentials-examples" className="space-y-4">
        <h2 id="credentials-examples" className="text-xl font-semibold">
          {`Call it from a program (${env.name})`}
        </h2>
        <p className="text-slate-800">
          Each sample is a complete program: it reads <code className="font-mono">CLIENT_ID</code> and <code className="font-mono">CLIENT_SECRET</code> from the
          environment, exchanges them for an access token at <span className="break-all font-mono">{tokenEndpoint}</span>, makes the call and prints the
          response body.
        </p>
        {firstCall ? (
          <>
            <CodeSamples
              call={{ tokenEndpoint, serverUrl: firstCall.serverUrl, operation: firstCall.operation }}
              context={firstCall.apiName === api.name ? "first call" : `first call (${firstCall.apiName})`}
            />
            <h3 className="text-lg font-semibold">With your own key instead of a secret (private_key_jwt)</h3>
            <p className="text-slate-800">
              For a credential created with your public keys: each sample reads <code className="font-mono">CLIENT_ID</code> and the path of your RSA private
              key from <code className="font-mono">PRIVATE_KEY_FILE</code>, signs a one-minute assertion with it and sends that instead of a secret.
            </p>
            <CodeSamples
              call={{ tokenEndpoint, serverUrl: firstCall.serverUrl, operation: firstCall.operation, authentication: "private_key_jwt" }}
              context={firstCall.apiName === api.name ? "key-signed first call" : `key-signed first call (${firstCall.apiName})`}
            />
          </>
        ) : (
          <p className="text-slate-800">This environment offers no API to call with the token yet.</p>
        )}
      </section>
    </div>
  );
}
