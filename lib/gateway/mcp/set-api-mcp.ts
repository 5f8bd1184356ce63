import "server-only";
import { type Actor, recordAudit } from "../../audit/write-audit";
import { type DbClient, inTransaction } from "../../db";
import { problem, validationProblem, zodProblem } from "../../http/problem";
import { notificationsDocument } from "../../notifications/openapi";
import { unknownRoutes, type VersionDocument } from "../policies/route-keys";
import { type McpSettings, mcpSettingsSchema, storedMcpSettings } from "./settings";

async function servableApi(db: DbClient, slug: string) {
  const api = await db.api.findUnique({
    where: { slug },
    select: { id: true, kind: true, mcp: true, versions: { select: { version: true, openapiDocument: true } } },
  });
  if (!api) throw problem("not-found", { detail: `There is no API "${slug}".` });
  if (api.kind === "TOKEN") throw validationProblem([{ in: "path", field: "slug", message: `"${slug}" is the token service: it has no MCP server` }]);
  return api;
}

/** The documents whose operations the settings' keys may name: a built-in API's comes from code. */
function documentsOf(api: Awaited<ReturnType<typeof servableApi>>): VersionDocument[] {
  if (api.kind !== "NOTIFICATIONS") return api.versions;
  return api.versions.map(({ version }) => ({ version, openapiDocument: JSON.stringify(notificationsDocument({ gatewayUrl: "" })) }));
}

/** An API's MCP settings as stored; off when it has none. */
export async function apiMcp({ db, slug }: { db: DbClient; slug: string }): Promise<McpSettings> {
  return storedMcpSettings((await servableApi(db, slug)).mcp);
}

/**
 * Sets an API's MCP settings (`{ enabled, include, exclude, toolNames }`), replacing those it
 * had: the console, /api/v1 and the configuration file all write them here. Every operation
 * they name must be one of the API's versions' documents'. Audited as `api.mcp`, in the
 * caller's transaction when `db` is one.
 */
export async function setApiMcp(input: { db: DbClient; actor: Actor; slug: string; mcp: unknown }): Promise<McpSettings> {
  const { db, actor, slug } = input;
  const parsed = mcpSettingsSchema.safeParse(input.mcp ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const api = await servableApi(db, slug);
  const settings = parsed.data;
  const named = [
    ...(settings.include ?? []).map((key) => ["include", key] as const),
    ...(settings.exclude ?? []).map((key) => ["exclude", key] as const),
    ...Object.keys(settings.toolNames ?? {}).map((key) => ["toolNames", key] as const),
  ];
  const unknown = unknownRoutes({ routes: Object.fromEntries(named.map(([, key]) => [key, {}])) }, documentsOf(api));
  if (unknown.length > 0) {
    const fieldOf = (key: string) => named.find(([, each]) => each === key)?.[0] ?? "include";
    throw validationProblem(unknown.map(({ key, message }) => ({ in: "body", field: `${fieldOf(key)}.${key}`, message })));
  }
  await inTransaction(db, async (tx) => {
    await tx.api.update({ where: { id: api.id }, data: { mcp: settings } });
    await recordAudit(tx, actor, { action: "api.mcp", targetType: "api", targetId: slug, details: { enabled: settings.enabled } });
  });
  return settings;
}
