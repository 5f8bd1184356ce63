import "server-only";
import { z } from "zod";
import type { PortalUser } from "../actors/portal-user";
import { type DbClient, inTransaction } from "../db";
import { problem, validationProblem, zodProblem } from "../http/problem";
import { newId } from "../ids";
import { recordAudit } from "../audit/write-audit";
import { actorOf } from "../audit/portal-actor";
import { singleTarget, type UpstreamPolicy, upstreamPolicySchema } from "../upstreams/upstream-policy";
import { guidesFromMarkdown } from "../catalog/guides";
import { MANAGEMENT_API_SLUG, MANAGEMENT_SLUG_MESSAGE } from "../catalog/management-slug";
import { checkOpenApiDocument } from "./openapi-check";
import { compareVersions, firstVersion, setCurrentDocument } from "../api-lifecycle/versions";

const RESERVED_SLUGS = new Set(["oauth2", ".well-known"]);

export const apiInputSchema = z.strictObject({
  name: z.string().trim().min(1, "Enter a name").max(100),
  slug: z
    .string()
    .trim()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "Use lowercase letters, digits and single dashes")
    .max(60)
    .refine((slug) => !RESERVED_SLUGS.has(slug), "This path is reserved for the token service")
    .refine((slug) => slug !== MANAGEMENT_API_SLUG, MANAGEMENT_SLUG_MESSAGE),
  summary: z.string().trim().min(1, "Write a one-line summary").max(200),
  description: z.string().trim().max(10_000).default(""),
  version: z.string().trim().min(1, "Enter a version").max(40),
  tags: z
    .string()
    .max(500)
    .default("")
    .transform((value) => [
      ...new Set(
        value
          .split(",")
          .map((tag) => tag.trim().toLowerCase())
          .filter(Boolean),
      ),
    ]),
  scopes: z
    .string()
    .max(1000)
    .default("")
    .transform((value) => [...new Set(value.split(/[\s,]+/).filter(Boolean))])
    .pipe(z.array(z.string().regex(/^[A-Za-z0-9:._-]{1,100}$/, "Scopes use letters, digits and : . _ -"))),
  visibility: z.enum(["public", "protected"], { message: "Choose public or protected" }),
  credentialType: z
    .enum(["", "GLOBAL_SSO", "PLATFORM"])
    .default("")
    .transform((value) => value || null),
  environments: z
    .array(
      z.strictObject({
        slug: z.string(),
        /** the upstream's targets and how the gateway treats them */
        upstream: upstreamPolicySchema.optional(),
        /** shorthand for an upstream of this one target, every setting at its default */
        upstreamUrl: z.string().trim().max(2000).default(""),
      }),
    )
    .min(1, "Offer the API in at least one environment")
    .refine((rows) => new Set(rows.map((row) => row.slug)).size === rows.length, "List each environment once"),
  openapiDocument: z.string().max(2_000_000, "Keep the document under 2 MB").default(""),
  /** every guide as one Markdown text, each from its `# Title` line; left out, the guides stay as they are */
  guides: z.string().max(1_000_000, "Keep the guides under 1 MB").optional(),
});

export type ApiInput = z.input<typeof apiInputSchema>;

export function listRegisteredApis({ db }: { db: DbClient }) {
  return db.api.findMany({ orderBy: { name: "asc" }, include: { environments: { include: { environment: { select: { slug: true } } } } } });
}

/** Every registered API, by slug, with the environments that serve it: what `admin api list` prints. */
export async function apiSummaries({ db }: { db: DbClient }) {
  const apis = await db.api.findMany({
    orderBy: { slug: "asc" },
    include: { environments: { include: { environment: { select: { slug: true } } } }, versions: { select: { version: true, status: true } } },
  });
  return apis.map((api) => ({
    slug: api.slug,
    name: api.name,
    version: api.version,
    kind: api.kind,
    public: api.isPublic,
    environments: api.environments.map((served) => served.environment.slug),
    versions: api.versions.sort(compareVersions),
  }));
}

export async function registeredApi({ db, slug }: { db: DbClient; slug: string }) {
  return slug ? db.api.findUnique({ where: { slug }, include: { environments: { include: { environment: true } }, scopes: true } }) : null;
}

/** The environment's upstream: the policy given, else the one target of its URL, else none. */
function upstreamOf(env: { upstream?: UpstreamPolicy; upstreamUrl: string }): UpstreamPolicy | null {
  return env.upstream ?? (env.upstreamUrl ? upstreamPolicySchema.parse(singleTarget(env.upstreamUrl)) : null);
}

async function validated(db: DbClient, input: unknown) {
  const parsed = apiInputSchema.safeParse(input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const data = parsed.data;
  const environments = await db.environment.findMany({ where: { slug: { in: data.environments.map((env) => env.slug) } } });
  const errors: { in: "body"; field: string; message: string }[] = [];
  data.environments.forEach((env, index) => {
    if (!environments.some((known) => known.slug === env.slug))
      errors.push({ in: "body", field: `environments.${index}.slug`, message: "There is no such environment" });
    if (env.upstreamUrl && !/^https?:\/\/[^\s]+$/.test(env.upstreamUrl)) {
      errors.push({ in: "body", field: `environments.${index}.upstreamUrl`, message: "Enter an http(s) URL" });
    }
  });
  let document: string | null = null;
  if (data.openapiDocument.trim()) {
    const checked = await checkOpenApiDocument(data.openapiDocument);
    if (checked.ok) document = checked.json;
    else
      errors.push(
        ...checked.errors.map((error) => ({ in: "body" as const, field: "openapiDocument", message: `${error.pointer || "(document)"}: ${error.message}` })),
      );
  }
  const guides = data.guides === undefined ? undefined : guidesFromMarkdown(data.guides);
  if (guides && "problems" in guides) errors.push(...guides.problems.map((message) => ({ in: "body" as const, field: "guides", message })));
  if (errors.length > 0) throw validationProblem(errors);
  const environmentIds = new Map(environments.map((env) => [env.slug, env.id]));
  return { data, document, environmentIds, guides: guides && "guides" in guides ? guides.guides : undefined };
}

/** Registers a proxied API: the gateway forwards its calls to the upstream URL of each environment. */
export async function createApi({ db, admin, input }: { db: DbClient; admin: PortalUser; input: unknown }) {
  const { data, document, environmentIds, guides } = await validated(db, input);
  if (await db.api.findUnique({ where: { slug: data.slug } })) throw validationProblem([{ in: "body", field: "slug", message: "Another API uses this slug" }]);
  const missingUpstream = data.environments.findIndex((env) => !upstreamOf(env));
  if (missingUpstream >= 0) throw validationProblem([{ in: "body", field: `environments.${missingUpstream}.upstreamUrl`, message: "Enter the upstream URL" }]);
  const changelog = [{ version: data.version, date: new Date().toISOString().slice(0, 10), notes: "Registered in the portal." }];
  return inTransaction(db, async (tx) => {
    const api = await tx.api.create({
      data: {
        id: newId("api"),
        slug: data.slug,
        name: data.name,
        summary: data.summary,
        description: data.description,
        version: data.version,
        tags: data.tags,
        kind: "PROXY",
        isPublic: data.visibility === "public",
        credentialType: data.credentialType,
        openapiDocument: document,
        ...(guides ? { guides } : {}),
        changelog,
        versions: firstVersion({ openapiDocument: document, changelog }),
        scopes: { create: data.scopes.map((name) => ({ name, description: name })) },
        environments: { create: data.environments.map((env) => ({ environmentId: environmentIds.get(env.slug)!, upstream: upstreamOf(env)! })) },
      },
    });
    await recordAudit(tx, actorOf(admin), {
      action: "api.create",
      targetType: "api",
      targetId: api.slug,
      details: { environments: data.environments.map((env) => env.slug), isPublic: api.isPublic, scopes: data.scopes },
    });
    return { slug: api.slug };
  });
}

/** Edits an API; the slug and kind stay, built-in APIs keep their generated documents. */
export async function updateApi({ db, admin, slug, input }: { db: DbClient; admin: PortalUser; slug: string; input: unknown }) {
  const existing = await registeredApi({ db, slug });
  if (!existing) throw problem("not-found", { detail: `There is no API "${slug}".` });
  const { data, document, environmentIds, guides } = await validated(db, { ...(input as object), slug });
  const proxied = existing.kind === "PROXY";
  const missingUpstream = proxied ? data.environments.findIndex((env) => !upstreamOf(env)) : -1;
  if (missingUpstream >= 0) throw validationProblem([{ in: "body", field: `environments.${missingUpstream}.upstreamUrl`, message: "Enter the upstream URL" }]);
  await inTransaction(db, async (tx) => {
    await tx.api.update({
      where: { id: existing.id },
      data: {
        name: data.name,
        summary: data.summary,
        description: data.description,
        version: data.version,
        tags: data.tags,
        isPublic: data.visibility === "public",
        credentialType: data.credentialType,
        ...(proxied ? { openapiDocument: document } : {}),
        ...(proxied && guides ? { guides } : {}),
      },
    });
    if (proxied) await setCurrentDocument(tx, existing.id, document);
    await tx.apiEnvironment.deleteMany({ where: { apiId: existing.id } });
    await tx.apiEnvironment.createMany({
      data: data.environments.map((env) => ({
        apiId: existing.id,
        environmentId: environmentIds.get(env.slug)!,
        ...(proxied ? { upstream: upstreamOf(env)! } : {}),
      })),
    });
    if (proxied) {
      await tx.apiScope.deleteMany({ where: { apiId: existing.id, name: { notIn: data.scopes } } });
      for (const name of data.scopes) {
        await tx.apiScope.upsert({ where: { apiId_name: { apiId: existing.id, name } }, create: { apiId: existing.id, name, description: name }, update: {} });
      }
    }
    await recordAudit(tx, actorOf(admin), {
      action: "api.update",
      targetType: "api",
      targetId: slug,
      details: {
        environments: data.environments.map((env) => env.slug),
        isPublic: data.visibility === "public",
        documentReplaced: proxied && document !== existing.openapiDocument,
      },
    });
  });
  return { slug };
}
