import "server-only";
import { apiSummaries } from "../api-registry/api-registry";
import { checkOpenApiValue } from "../api-registry/openapi-check";
import type { Actor } from "../audit/write-audit";
import { listAllCredentials } from "../credentials/credentials";
import { grantApi, revokeGrant } from "../credentials/grants";
import type { Db } from "../db";
import { applyChanges } from "../config-file/apply-changes";
import { applyDesired } from "../config-file/apply-desired";
import { configApiEntry } from "../config-file/export-config";
import { currentState, desiredState, type GatewayState } from "../config-file/gateway-state";
import type { PlanProblem } from "../config-file/plan";
import { apiMcp, setApiMcp } from "../gateway/mcp/set-api-mcp";
import { apiAuthentication, apiAuthenticationSchema, setApiAuthentication } from "../gateway/policies/authentication/set-api-authentication";
import { apiPolicies, setApiPolicies } from "../gateway/policies/set-api-policies";
import { type FieldError, problem, validationProblem } from "../http/problem";
import { setCredentialRateLimit, setEnvironmentRateLimit } from "../limiters/set-rate-limits";
import {
  apiAppliedSchema,
  apiBodySchema,
  apiPathSchema,
  apiDeletedSchema,
  apiMcpBodySchema,
  apiPoliciesBodySchema,
  apiReadSchema,
  apiSummaryListSchema,
  credentialFilterQuerySchema,
  credentialRateLimitSchema,
  environmentAppliedSchema,
  environmentBodySchema,
  environmentEntrySchema,
  environmentPathSchema,
  environmentRateLimitSchema,
  grantBodySchema,
  grantSummarySchema,
  openapiValidationBodySchema,
  openapiValidationSchema,
  rateLimitBodySchema,
} from "./admin-schemas";
import { CLIENT_ID, INVALID, jsonAnswer, jsonBody, ok, operation, parse } from "./operation-kit";
import { credentialListSchema } from "./schemas";

const slugParameter = (what: string) => ({
  name: "slug",
  in: "path",
  required: true,
  description: `The ${what}'s slug.`,
  schema: { type: "string", maxLength: 60 },
});
const ENV_SLUG = slugParameter("environment");
const API_SLUG = slugParameter("API");
const GRANTED_API = { name: "api", in: "path", required: true, description: "The slug of the API granted.", schema: { type: "string", maxLength: 60 } };
const NO_ENVIRONMENT = { code: "not-found", description: "There is no environment of this slug.", detail: 'There is no environment "staging".' } as const;
const NO_API = { code: "not-found", description: "There is no API of this slug.", detail: 'There is no API "orders".' } as const;
const NO_CREDENTIAL = { code: "not-found", description: "There is no credential of this client id.", detail: 'There is no credential "gci_…".' } as const;
const REVOKED = { code: "credential-revoked", description: "The credential is revoked.", detail: "The credential gci_… is revoked." } as const;
const PLAN_REFUSED = {
  code: "validation-failed",
  description: "The body is not valid, or the change conflicts with what exists (a built-in API's slug, an unknown environment).",
  detail: 'body environments.staging: there is no environment "staging"',
} as const;

/** The path's slug, checked as the configuration file checks slugs. */
function slugOf(schema: typeof environmentPathSchema | typeof apiPathSchema, params: Record<string, string>): string {
  return parse(schema, { slug: params.slug }, "path").slug;
}

/** A plan's problems as field errors: the entry's own fields are the body's, its slug is the path's. */
function planProblems(problems: readonly PlanProblem[]): FieldError[] {
  return problems.map(({ path, message }) => {
    const [, , ...field] = path;
    return field[0] === "slug" ? { in: "path", field: "slug", message } : { in: "body", field: field.join("."), message };
  });
}

const BUILT_IN_POLICIES = {
  code: "validation-failed",
  description: "The API is built in: policies apply to proxied APIs.",
  detail: 'path slug: "notifications" is a built-in API: policies apply to proxied APIs',
} as const;
const AUTHENTICATION_REFUSED = {
  code: "validation-failed",
  description: "A method is unknown or listed twice, none is listed, a field is unknown, or the API is the token service.",
  detail: "body authentication: List at least one method: oauth2, apiKey",
} as const;
const MCP_REFUSED = {
  code: "validation-failed",
  description:
    "A setting is not valid (a tool name outside ^[a-zA-Z0-9_-]{1,64}$, one name for two operations), a key names no operation of the API's documents, or the API is the token service.",
  detail: 'body include.GET /v1/itemz: "GET /v1/itemz" names no operation: no document of v1 declares it',
} as const;
const POLICIES_REFUSED = {
  code: "validation-failed",
  description: "A policy is not valid, a field is unknown, a route key names no operation of the API's documents, or the API is built in.",
  detail: 'body routes.POST /v1/itemz: "POST /v1/itemz" names no operation: no document of v1 declares it',
} as const;

/** Applies one entry as `config apply` does, audited as one `config.apply` event whose source names the operation. */
async function applyEntry(db: Db, actor: Actor, desired: GatewayState, source: string) {
  const { changes, problems } = await applyDesired({ db, actor, desired, source });
  if (problems.length > 0) throw validationProblem(planProblems(problems));
  return changes;
}

const created = (changes: readonly { action: string }[]) => (changes.some((change) => change.action === "create") ? 201 : 200);

async function environmentEntry(db: Db, slug: string) {
  const environment = (await currentState(db)).environments.find((env) => env.slug === slug);
  if (!environment) throw problem("not-found", { detail: `There is no environment "${slug}".` });
  return environment;
}

/** The administration of environments, APIs and credentials, as the admin CLI offers it; each calls the CLI's own services. */
/** Each inline OpenAPI document checked as the portal checks one on save, keyed as `desiredState` reads them; every error named by its field. */
async function checkedDocuments(entries: { key: string; field: string; document: Record<string, unknown> | undefined }[]): Promise<Map<string, string | null>> {
  const checked = await Promise.all(
    entries.map(async (entry) => ({ ...entry, result: entry.document === undefined ? undefined : await checkOpenApiValue(entry.document) })),
  );
  const errors = checked.flatMap(({ field, result }) =>
    result && !result.ok ? result.errors.map((error) => ({ in: "body" as const, field, message: `${error.pointer || "(document)"}: ${error.message}` })) : [],
  );
  if (errors.length > 0) throw validationProblem(errors);
  return new Map(checked.map(({ key, result }) => [key, result?.ok ? result.json : null]));
}

export const ADMIN_OPERATIONS = [
  operation({
    id: "getEnvironment",
    method: "GET",
    path: "/admin/environments/{slug}",
    scope: "admin:read",
    tags: ["Administration"],
    summary: "Read an environment",
    description: "As the configuration file describes it.",
    pathParameters: [ENV_SLUG],
    responses: () => ({ "200": jsonAnswer("The environment.", environmentEntrySchema) }),
    problems: [NO_ENVIRONMENT],
    handle: async ({ db, params }) => ok(await environmentEntry(db, params.slug ?? "")),
  }),
  operation({
    id: "putEnvironment",
    method: "PUT",
    path: "/admin/environments/{slug}",
    scope: "admin:write",
    tags: ["Administration"],
    summary: "Create or update an environment",
    description: "Applies one environment of the configuration file, as `admin config apply` does, in one audited transaction.",
    pathParameters: [ENV_SLUG],
    requestBody: jsonBody(environmentBodySchema),
    responses: () => ({
      "200": jsonAnswer("The environment, updated or already as asked.", environmentAppliedSchema),
      "201": jsonAnswer("The environment, created.", environmentAppliedSchema),
    }),
    problems: [INVALID],
    handle: async ({ db, caller, params, body }) => {
      const slug = slugOf(environmentPathSchema, params);
      const environment = { slug, ...parse(environmentBodySchema, body, "body") };
      const changes = await applyEntry(db, caller.actor, { environments: [environment], plans: [], apis: [], trust: [] }, `api:environment:${slug}`);
      return ok({ environment: await environmentEntry(db, slug), changes }, created(changes));
    },
  }),
  operation({
    id: "setEnvironmentRateLimit",
    method: "PUT",
    path: "/admin/environments/{slug}/rate-limit",
    scope: "admin:write",
    tags: ["Administration"],
    summary: "Set an environment's default rate limit",
    description: "Every credential of the environment without a policy of its own gets it, on every gateway instance within 1 second.",
    pathParameters: [ENV_SLUG],
    requestBody: jsonBody(rateLimitBodySchema),
    responses: () => ({ "200": jsonAnswer("The environment's policy.", environmentRateLimitSchema) }),
    problems: [INVALID, NO_ENVIRONMENT],
    handle: async ({ db, caller, params, body }) => ok(await setEnvironmentRateLimit({ db, actor: caller.actor, envSlug: params.slug ?? "", policy: body })),
  }),
  operation({
    id: "listApis",
    method: "GET",
    path: "/admin/apis",
    scope: "admin:read",
    tags: ["Administration"],
    summary: "List the registered APIs",
    responses: () => ({ "200": jsonAnswer("Every API, built-in and proxied, by slug, with the environments that serve it.", apiSummaryListSchema) }),
    handle: async ({ db }) => ok({ apis: await apiSummaries({ db }) }),
  }),
  operation({
    id: "getApi",
    method: "GET",
    path: "/admin/apis/{slug}",
    scope: "admin:read",
    tags: ["Administration"],
    summary: "Read an API",
    description: "A proxied API's `configuration` is the body `PUT` takes.",
    pathParameters: [API_SLUG],
    responses: () => ({ "200": jsonAnswer("The API.", apiReadSchema) }),
    problems: [NO_API],
    handle: async ({ db, params }) => {
      const slug = params.slug ?? "";
      const summary = (await apiSummaries({ db })).find((api) => api.slug === slug);
      if (!summary) throw problem("not-found", { detail: `There is no API "${slug}".` });
      const proxied = (await currentState(db)).apis.find((api) => api.slug === slug);
      return ok({ ...summary, configuration: proxied ? configApiEntry(proxied) : null });
    },
  }),
  operation({
    id: "putApi",
    method: "PUT",
    path: "/admin/apis/{slug}",
    scope: "admin:write",
    tags: ["Administration"],
    summary: "Register or update a proxied API",
    description:
      "The body is the API's entry in the configuration file, with its OpenAPI document inline; it is applied as `admin config apply` does, in one audited transaction.",
    pathParameters: [API_SLUG],
    requestBody: jsonBody(apiBodySchema),
    responses: () => ({
      "200": jsonAnswer("The API, updated or already as asked.", apiAppliedSchema),
      "201": jsonAnswer("The API, registered.", apiAppliedSchema),
    }),
    problems: [PLAN_REFUSED],
    handle: async ({ db, caller, params, body }) => {
      const slug = slugOf(apiPathSchema, params);
      const { openapi, guides, versions, ...entry } = parse(apiBodySchema, body, "body");
      const documents = await checkedDocuments([
        { key: slug, field: "openapi", document: openapi },
        ...(versions ?? []).map((version, index) => ({ key: `${slug} ${version.version}`, field: `versions.${index}.openapi`, document: version.openapi })),
      ]);
      const file = {
        environments: [],
        plans: [],
        apis: [{ slug, ...entry, ...(versions ? { versions: versions.map(({ openapi: _, ...version }) => version) } : {}) }],
        trust: [],
      };
      const desired = desiredState(
        file,
        documents,
        guides ? new Map([[slug, guides.map(({ content, ...guide }) => ({ ...guide, markdown: content }))]]) : new Map(),
      );
      const changes = await applyEntry(db, caller.actor, desired, `api:api:${slug}`);
      const saved = (await currentState(db)).apis.find((api) => api.slug === slug)!;
      return ok({ api: configApiEntry(saved), changes }, created(changes));
    },
  }),
  operation({
    id: "deleteApi",
    method: "DELETE",
    path: "/admin/apis/{slug}",
    scope: "admin:write",
    tags: ["Administration"],
    summary: "Delete a proxied API",
    description: "As `admin config apply --prune` deletes an API the file leaves out: its grants end with it. Built-in APIs cannot be deleted.",
    pathParameters: [API_SLUG],
    responses: () => ({ "200": jsonAnswer("The API is deleted.", apiDeletedSchema) }),
    problems: [{ ...NO_API, description: "There is no proxied API of this slug." }],
    handle: async ({ db, caller, params }) => {
      const slug = params.slug ?? "";
      if (!(await currentState(db)).apis.some((api) => api.slug === slug)) throw problem("not-found", { detail: `There is no proxied API "${slug}".` });
      // The one deletion `config apply --prune` would plan for it; pruning against a state read earlier could take APIs created meanwhile.
      const changes = [{ action: "delete", kind: "api", slug } as const];
      await applyChanges({ db, actor: caller.actor, desired: { environments: [], plans: [], apis: [], trust: [] }, changes, source: `api:api:${slug}` });
      return ok({ changes });
    },
  }),
  operation({
    id: "getApiPolicies",
    method: "GET",
    path: "/admin/apis/{slug}/policies",
    scope: "admin:read",
    tags: ["Administration"],
    summary: "Read a proxied API's gateway policies",
    description: "As the API's configuration-file entry gives them; `{}` when it has none.",
    pathParameters: [API_SLUG],
    responses: () => ({ "200": jsonAnswer("The API's policies.", apiPoliciesBodySchema) }),
    problems: [NO_API, BUILT_IN_POLICIES],
    handle: async ({ db, params }) => ok(await apiPolicies({ db, slug: params.slug ?? "" })),
  }),
  operation({
    id: "setApiPolicies",
    method: "PUT",
    path: "/admin/apis/{slug}/policies",
    scope: "admin:write",
    tags: ["Administration"],
    summary: "Set a proxied API's gateway policies",
    description:
      "Replaces the API's policies and its routes' in one audited change (`api.policies`); every route key must name an operation of one of the API's versions' OpenAPI documents. The gateway applies them within its cache's age.",
    pathParameters: [API_SLUG],
    requestBody: jsonBody(apiPoliciesBodySchema),
    responses: () => ({ "200": jsonAnswer("The API's policies as stored.", apiPoliciesBodySchema) }),
    problems: [POLICIES_REFUSED, NO_API],
    handle: async ({ db, caller, params, body }) => ok(await setApiPolicies({ db, actor: caller.actor, slug: params.slug ?? "", policies: body })),
  }),
  operation({
    id: "getApiAuthentication",
    method: "GET",
    path: "/admin/apis/{slug}/authentication",
    scope: "admin:read",
    tags: ["Administration"],
    summary: "Read the authentication methods an API accepts",
    description: "As the API's configuration-file entry gives them: `oauth2`, `apiKey`, any of them, in the order the gateway's challenges list them.",
    pathParameters: [API_SLUG],
    responses: () => ({ "200": jsonAnswer("The API's methods.", apiAuthenticationSchema) }),
    problems: [NO_API, AUTHENTICATION_REFUSED],
    handle: async ({ db, params }) => ok(await apiAuthentication({ db, slug: params.slug ?? "" })),
  }),
  operation({
    id: "setApiAuthentication",
    method: "PUT",
    path: "/admin/apis/{slug}/authentication",
    scope: "admin:write",
    tags: ["Administration"],
    summary: "Set the authentication methods an API accepts",
    description:
      "Replaces the API's methods in one audited change (`api.authentication`): a call is accepted when any of them succeeds, and a refusal carries one `WWW-Authenticate` field per method, in this order. The gateway applies them within its cache's age.",
    pathParameters: [API_SLUG],
    requestBody: jsonBody(apiAuthenticationSchema),
    responses: () => ({ "200": jsonAnswer("The API's methods as stored.", apiAuthenticationSchema) }),
    problems: [AUTHENTICATION_REFUSED, NO_API],
    handle: async ({ db, caller, params, body }) => ok(await setApiAuthentication({ db, actor: caller.actor, slug: params.slug ?? "", input: body })),
  }),
  operation({
    id: "getApiMcp",
    method: "GET",
    path: "/admin/apis/{slug}/mcp",
    scope: "admin:read",
    tags: ["Administration"],
    summary: "Read an API's MCP server settings",
    description: 'As the API\'s configuration-file entry gives them; `{ "enabled": false }` when it has none.',
    pathParameters: [API_SLUG],
    responses: () => ({ "200": jsonAnswer("The API's MCP settings.", apiMcpBodySchema) }),
    problems: [NO_API, MCP_REFUSED],
    handle: async ({ db, params }) => ok(await apiMcp({ db, slug: params.slug ?? "" })),
  }),
  operation({
    id: "setApiMcp",
    method: "PUT",
    path: "/admin/apis/{slug}/mcp",
    scope: "admin:write",
    tags: ["Administration"],
    summary: "Set an API's MCP server settings",
    description:
      "Replaces the API's MCP settings in one audited change (`api.mcp`): whether `/mcp/{env}/{api}` serves its operations as tools, which (`include`, `exclude`) and under which names (`toolNames`). The gateway applies them within its cache's age.",
    pathParameters: [API_SLUG],
    requestBody: jsonBody(apiMcpBodySchema),
    responses: () => ({ "200": jsonAnswer("The API's MCP settings as stored.", apiMcpBodySchema) }),
    problems: [MCP_REFUSED, NO_API],
    handle: async ({ db, caller, params, body }) => ok(await setApiMcp({ db, actor: caller.actor, slug: params.slug ?? "", mcp: body })),
  }),
  operation({
    id: "validateOpenApi",
    method: "POST",
    path: "/admin/openapi-validation",
    scope: "admin:read",
    tags: ["Administration"],
    summary: "Validate an OpenAPI document",
    description: "The check the portal and `admin api validate` apply on save: OpenAPI 3.0 or 3.1, every `$ref` resolved inside the document.",
    requestBody: jsonBody(openapiValidationBodySchema),
    responses: () => ({ "200": jsonAnswer("Whether the document is valid, and what is wrong where.", openapiValidationSchema) }),
    problems: [INVALID],
    handle: async ({ body }) => {
      const checked = await checkOpenApiValue(parse(openapiValidationBodySchema, body, "body"));
      return ok(checked.ok ? { valid: true, version: checked.version } : { valid: false, errors: checked.errors });
    },
  }),
  operation({
    id: "listAllCredentials",
    method: "GET",
    path: "/admin/credentials",
    scope: "admin:read",
    tags: ["Administration"],
    summary: "List every credential",
    description: "Of every user, filtered by environment, application and owner; secrets are never shown.",
    query: credentialFilterQuerySchema,
    responses: () => ({ "200": jsonAnswer("The credentials.", credentialListSchema) }),
    problems: [INVALID],
    handle: async ({ db, query }) => {
      const { environment, application, owner } = parse(credentialFilterQuerySchema, query, "query");
      const filter = { envSlug: environment, applicationName: application, ownerEmail: owner?.toLowerCase() };
      return ok({ credentials: await listAllCredentials({ db, filter }) });
    },
  }),
  operation({
    id: "grantApi",
    method: "PUT",
    path: "/admin/credentials/{clientId}/grants/{api}",
    scope: "admin:write",
    tags: ["Administration"],
    summary: "Grant a credential an API",
    description: "An API of the credential's environment, with the scopes given or every scope it defines; on an existing grant, sets its scopes.",
    pathParameters: [CLIENT_ID, GRANTED_API],
    requestBody: jsonBody(grantBodySchema),
    responses: () => ({ "200": jsonAnswer("The grant.", grantSummarySchema) }),
    problems: [INVALID, NO_CREDENTIAL, REVOKED],
    handle: async ({ db, caller, params, body }) => {
      const { scopes } = parse(grantBodySchema, body, "body");
      return ok(await grantApi({ db, actor: caller.actor, clientId: params.clientId ?? "", apiSlug: params.api ?? "", scopes }));
    },
  }),
  operation({
    id: "revokeGrant",
    method: "DELETE",
    path: "/admin/credentials/{clientId}/grants/{api}",
    scope: "admin:write",
    tags: ["Administration"],
    summary: "End a credential's access to an API",
    description: "Its other grants stay; the gateway refuses its calls to the API within 1 second.",
    pathParameters: [CLIENT_ID, GRANTED_API],
    responses: () => ({ "200": jsonAnswer("The grant that ended.", grantSummarySchema) }),
    problems: [{ ...NO_CREDENTIAL, description: "There is no credential of this client id, or it has no grant for the API." }],
    handle: async ({ db, caller, params }) => ok(await revokeGrant({ db, actor: caller.actor, clientId: params.clientId ?? "", apiSlug: params.api ?? "" })),
  }),
  operation({
    id: "setCredentialRateLimit",
    method: "PUT",
    path: "/admin/credentials/{clientId}/rate-limit",
    scope: "admin:write",
    tags: ["Administration"],
    summary: "Give a credential its own rate limit",
    pathParameters: [CLIENT_ID],
    requestBody: jsonBody(rateLimitBodySchema),
    responses: () => ({ "200": jsonAnswer("The credential's policy and the one the gateway applies.", credentialRateLimitSchema) }),
    problems: [INVALID, NO_CREDENTIAL],
    handle: async ({ db, caller, params, body }) =>
      ok(await setCredentialRateLimit({ db, actor: caller.actor, clientId: params.clientId ?? "", policy: body ?? {} })),
  }),
  operation({
    id: "clearCredentialRateLimit",
    method: "DELETE",
    path: "/admin/credentials/{clientId}/rate-limit",
    scope: "admin:write",
    tags: ["Administration"],
    summary: "Clear a credential's own rate limit",
    description: "The credential follows its environment's policy again.",
    pathParameters: [CLIENT_ID],
    responses: () => ({ "200": jsonAnswer("The policy the gateway applies.", credentialRateLimitSchema) }),
    problems: [NO_CREDENTIAL],
    handle: async ({ db, caller, params }) => ok(await setCredentialRateLimit({ db, actor: caller.actor, clientId: params.clientId ?? "", policy: null })),
  }),
];
