import type { Metadata } from "next";
import { ApiForm } from "@/components/admin/api-form";
import { requireAdmin } from "@/lib/auth/session";
import { db } from "@/lib/db";

export const metadata: Metadata = { title: "New API" };
export const dynamic = "force-dynamic";

export default async function NewApiPage() {
  await requireAdmin("/admin/apis/new");
  const environments = await db().environment.findMany({ orderBy: { position: "asc" }, select: { slug: true, name: true } });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">New API</h1>
      <ApiForm
        editing={false}
        proxied
        environments={environments}
        initial={{
          name: "",
          slug: "",
          summary: "",
          description: "",
          version: "1.0.0",
          tags: "",
          scopes: "",
          visibility: "protected",
          credentialType: "",
          environments: {},
          upstreamSettings: {},
          openapiDocument: "",
          guides: "",
        }}
      />
    </div>
  );
}
