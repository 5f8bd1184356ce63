import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ApiAuthenticationSection } from "@/components/admin/api-authentication";
import { ApiForm } from "@/components/admin/api-form";
import { ApiMcpSection } from "@/components/admin/api-mcp";
import { ApiPoliciesSection } from "@/components/admin/api-policies";
import { ApiScopeGaps } from "@/components/admin/api-scope-gaps";
import { ApiVersions } from "@/components/admin/api-versions";
import { listVersions } from "@/lib/api-lifecycle/versions";
import { UpstreamHealthTable } from "@/components/admin/upstream-health";
import { requireAdmin } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { registeredApi } from "@/lib/api-registry/api-registry";
import { storedAuthentication } from "@/lib/gateway/policies/authentication/schema";
import { storedApiPolicies } from "@/lib/gateway/policies/set-api-policies";
import { storedMcpSettings } from "@/lib/gateway/mcp/settings";
import { upstreamPolicySchema } from "@/lib/upstreams/upstream-policy";
import { readUpstreamHealth } from "@/lib/upstreams/health-board";
import { targetsText } from "@/lib/upstreams/targets-text";
import { guidesToMarkdown, storedGuidesSchema } from "@/lib/catalog/guides";

export const metadata: Metadata = { title: "Edit API" };
export const dynamic = "force-dynamic";

export default async function EditApiPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  await requireAdmin(`/admin/apis/${slug}`);
  const [api, environments] = await Promise.all([
    registeredApi({ db: db(), slug }),
    db().environment.findMany({ orderBy: { position: "asc" }, select: { slug: true, name: true } }),
  ]);
  if (!api) notFound();
  const upstreams = api.environments.flatMap((env) => {
    const policy = upstreamPolicySchema.safeParse(env.upstream).data;
    return policy ? [{ env: env.environment.slug, policy }] : [];
  });
  const [health, versions] = await Promise.all([api.kind === "PROXY" ? readUpstreamHealth(api.slug) : [], listVersions(db(), api.id)]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Edit {api.name}</h1>
      <ApiForm
        editing
        proxied={api.kind === "PROXY"}
        environments={environments}
        initial={{
          name: api.name,
          slug: api.slug,
          summary: api.summary,
          description: api.description,
          version: api.version,
          tags: (api.tags as string[]).join(", "),
          scopes: api.scopes.map((scope) => scope.name).join(", "),
          visibility: api.isPublic ? "public" : "protected",
          credentialType: api.credentialType ?? "",
          environments: Object.fromEntries(
            api.environments.map(({ environment }) => [
              environment.slug,
              targetsText(upstreams.find(({ env }) => env === environment.slug)?.policy.targets ?? []),
            ]),
          ),
          upstreamSettings: Object.fromEntries(upstreams.map(({ env, policy: { targets: _, ...settings } }) => [env, JSON.stringify(settings, null, 2)])),
          openapiDocument: api.openapiDocument ? JSON.stringify(JSON.parse(api.openapiDocument), null, 2) : "",
          guides: guidesToMarkdown(storedGuidesSchema.parse(api.guides)),
        }}
      />
      <ApiVersions slug={api.slug} versions={versions} />
      {api.kind === "TOKEN" ? null : <ApiAuthenticationSection slug={api.slug} initial={[...storedAuthentication(api.authentication)]} />}
      {api.kind === "PROXY" ? <ApiPoliciesSection slug={api.slug} policies={storedApiPolicies(api.policies)} /> : null}
      {api.kind === "TOKEN" ? null : <ApiMcpSection slug={api.slug} settings={storedMcpSettings(api.mcp)} />}
      <ApiScopeGaps apiSlug={api.slug} />
      {api.kind === "PROXY" ? <UpstreamHealthTable health={health} environments={environments} /> : null}
    </div>
  );
}
