import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ApiForm } from "@/components/admin/api-form";
import { requireAdmin } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { registeredApi } from "@/lib/api-registry/api-registry";

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
          environments: Object.fromEntries(api.environments.map((env) => [env.environment.slug, env.upstreamUrl ?? ""])),
          openapiDocument: api.openapiDocument ? JSON.stringify(JSON.parse(api.openapiDocument), null, 2) : "",
        }}
      />
    </div>
  );
}
