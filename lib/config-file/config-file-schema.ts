import { z } from "zod";
import { guideSchema } from "../catalog/guides";
import { MANAGEMENT_API_SLUG, MANAGEMENT_SLUG_MESSAGE } from "../catalog/management-slug";
import { upstreamPolicySchema } from "../upstreams/upstream-policy";
import { trustSchema } from "../credentials/client-keys";
import { versionNameSchema, versionStatusSchema } from "../api-lifecycle/versions-schema";
import { authenticationMethodsSchema, DEFAULT_AUTHENTICATION } from "../gateway/policies/authentication/schema";
import { mcpSettingsSchema } from "../gateway/mcp/settings";
import { apiPoliciesSchema } from "../gateway/policies/policy-set";

const slug = z
  .string()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "Use lowercase letters, digits and single dashes")
  .max(60);

export const configEnvironmentSchema = z
  .object({
    slug,
    name: z.string().trim().min(1).max(100),
    credentialType: z.enum(["GLOBAL_SSO", "PLATFORM"]),
    selfService: z.boolean().default(false),
    tokenLifetimeSeconds: z.number().int().min(60).max(86_400).meta({ format: "int32" }).default(3_600),
    /** DPoP (RFC 9449): every credential of the environment gets tokens only with a proof */
    requireDpop: z.boolean().default(false),
    /** DPoP proofs must carry a server nonce, at the token endpoint and the gateway */
    dpopNonce: z.boolean().default(false),
    /** the default rate-limit policy of the environment's credentials */
    rateLimit: z
      .object({
        burst: z.number().int().min(1).max(1_000_000).meta({ format: "int32" }),
        perSecond: z.number().int().min(1).max(100_000).meta({ format: "int32" }),
      })
      .strict()
      .default({ burst: 100, perSecond: 50 }),
  })
  .strict();

const scope = z.union([
  z
    .string()
    .max(100)
    .regex(/^[A-Za-z0-9:._-]{1,100}$/, "Scopes use letters, digits and : . _ -"),
  z
    .object({
      name: z
        .string()
        .max(100)
        .regex(/^[A-Za-z0-9:._-]{1,100}$/, "Scopes use letters, digits and : . _ -"),
      description: z.string().max(500),
    })
    .strict(),
]);

/** A Markdown guide: a `.md` file beside this one (`markdown`), or its text written out (`content`, as export writes it). */
const configGuide = guideSchema
  .pick({ slug: true, title: true })
  .extend({
    markdown: z.string().min(1).max(1000).optional().meta({ description: "path of a Markdown file, relative to this file" }),
    content: guideSchema.shape.markdown.optional().meta({ description: "the Markdown itself" }),
  })
  .strict()
  .refine((guide) => (guide.markdown === undefined) !== (guide.content === undefined), "Give either markdown (a file) or content (the text)");

const changelogEntry = z.object({ version: z.string().min(1).max(40), date: z.string().max(40), notes: z.string().max(10_000) }).strict();

/** `2026-11-01` (midnight UTC) or an ISO 8601 time; a YAML 1.1 parser hands the first over as a Date, which is taken too. */
const configDate = z.union([z.iso.date().max(10), z.iso.datetime({ offset: true }).max(40), z.date()], {
  error: "Write a date as 2027-06-30, or an ISO 8601 time",
});

/** One version of an API: its gateway path segment, document, status and dates. */
export const configVersionSchema = z
  .object({
    version: versionNameSchema,
    /** the OpenAPI document: a path relative to this file, or the document itself */
    openapi: z.union([z.string().min(1).max(1000), z.record(z.string(), z.unknown())]).optional(),
    status: versionStatusSchema.default("current"),
    deprecatedAt: configDate.optional(),
    sunsetAt: configDate.optional(),
    /** the version's own changelog; left out: kept as it is */
    changelog: z.array(changelogEntry).max(1000).optional(),
  })
  .strict();

/** An API's fields, without the rules across them (`checkApiVersions`): the management API derives its bodies from these. */
export const configApiFields = z
  .object({
    slug: slug
      .refine((value) => value !== "oauth2", "This path is reserved for the token service")
      .refine((value) => value !== MANAGEMENT_API_SLUG, MANAGEMENT_SLUG_MESSAGE),
    name: z.string().trim().min(1).max(100),
    summary: z.string().trim().min(1).max(200),
    description: z.string().max(10_000).default(""),
    /** the version shown in the catalog; with `versions`, the current version's document's `info.version` */
    version: z.string().trim().min(1).max(40).optional(),
    tags: z.array(z.string().trim().toLowerCase().min(1).max(50)).max(50).default([]),
    visibility: z.enum(["public", "protected"]),
    /** the credential type callers need; unset, each environment's own applies */
    credentialType: z.enum(["GLOBAL_SSO", "PLATFORM"]).nullable().default(null),
    authentication: authenticationMethodsSchema.default([...DEFAULT_AUTHENTICATION]),
    scopes: z.array(scope).max(100).default([]),
    /** the OpenAPI document: a path relative to this file, or the document itself */
    openapi: z.union([z.string().min(1).max(1000), z.record(z.string(), z.unknown())]).optional(),
    /** left out: the API's changelog stays as it is (a new API gets one entry) */
    changelog: z.array(changelogEntry).max(1000).optional(),
    /** served at /apis/{slug}/guides/{guide}; left out: the API's guides stay as they are */
    guides: z.array(configGuide).max(50).optional(),
    /** each environment the API is offered in, with its upstream there */
    environments: z.record(slug, upstreamPolicySchema),
    /** the API's versions side by side, each under its own path segment; left out: one version, `v1`, holding `openapi` */
    versions: z.array(configVersionSchema).min(1).max(50).optional(),
    /** the plans the API offers, by slug, in the order the API page lists them; left out, none: calls need only a grant, as before plans */
    plans: z.array(slug).max(20).default([]),
    mcp: mcpSettingsSchema.optional().meta({ description: "The API's MCP server at /mcp/{env}/{api}; left out, off." }),
    policies: apiPoliciesSchema.shape.policies.meta({ description: "The gateway policies of every route of every version; left out, none." }),
    routes: apiPoliciesSchema.shape.routes.meta({
      description:
        "Policies of single routes, by \"METHOD /path-template\" of an operation of the API's OpenAPI documents; each replaces the API's policy of the same name. Left out, none.",
    }),
  })
  .strict();

/**
 * A plan APIs offer: the rate limit and the quota of each subscription to it, and whether a
 * subscription is granted at once (`auto`) or waits for an admin in the access-request queue (`manual`).
 */
export const configPlanSchema = z
  .object({
    slug,
    name: z.string().trim().min(1).max(100),
    description: z.string().max(1000).default(""),
    rateLimit: z
      .object({
        burst: z.number().int().min(1).max(1_000_000).meta({ format: "int32" }),
        perSecond: z.number().int().min(1).max(100_000).meta({ format: "int32" }),
      })
      .strict(),
    /** requests per calendar period in UTC: an hour, a day, or a month from the 1st at 00:00 */
    quota: z
      .object({
        requests: z.number().int().min(1).max(2_000_000_000).meta({ format: "int32" }),
        period: z.enum(["hour", "day", "month"]),
      })
      .strict(),
    approval: z.enum(["auto", "manual"]).default("auto"),
  })
  .strict();

/** A credential that trusts an external OIDC issuer (workload identity federation); the credential itself is created elsewhere. */
export const configTrustSchema = trustSchema
  .extend({ client: z.string().min(1).max(200).meta({ description: "The credential's client id (gci_…)." }) })
  .strict();

type VersionedFields = { version?: string; openapi?: unknown; versions?: { version: string; status: string }[] };

/** An API gives either its one version and document, or its versions each with theirs: one current at most, none twice. */
export function checkApiVersions(api: VersionedFields, context: z.RefinementCtx): void {
  if (api.versions === undefined) {
    if (api.version === undefined) context.addIssue({ code: "custom", path: ["version"], message: "Give the API a version, or list its versions" });
    return;
  }
  for (const field of ["version", "openapi"] as const) {
    if (api[field] !== undefined) context.addIssue({ code: "custom", path: [field], message: `With versions, each version gives its own ${field}` });
  }
  api.versions.forEach((entry, index) => {
    if (api.versions!.findIndex((other) => other.version === entry.version) < index)
      context.addIssue({ code: "custom", path: ["versions", index, "version"], message: `${entry.version} is listed twice` });
  });
  if (api.versions.filter((entry) => entry.status === "current").length > 1)
    context.addIssue({ code: "custom", path: ["versions"], message: "At most one version is current" });
}

export const configApiSchema = configApiFields.superRefine(checkApiVersions);

/**
 * The gateway configuration file (`admin config apply|diff -f FILE`): environments and
 * proxied APIs with their upstreams, and which credentials trust which external issuers.
 * Built-in APIs, credentials themselves and users are not in it.
 */
export const configFileSchema = z
  .object({
    environments: z.array(configEnvironmentSchema).default([]),
    plans: z.array(configPlanSchema).max(100).default([]),
    apis: z.array(configApiSchema).default([]),
    trust: z.array(configTrustSchema).max(1000).default([]),
  })
  .strict();

export type ConfigFile = z.output<typeof configFileSchema>;
export type ConfigEnvironment = ConfigFile["environments"][number];
export type ConfigApi = ConfigFile["apis"][number];
export type ConfigPlan = ConfigFile["plans"][number];
export type ConfigTrust = ConfigFile["trust"][number];

/** The JSON Schema editors complete the file with, published at /schemas/gatehouse-config.json. */
export function configFileJsonSchema(): Record<string, unknown> {
  return {
    title: "Gatehouse configuration file",
    ...z.toJSONSchema(configFileSchema, {
      target: "draft-2020-12",
      io: "input",
      unrepresentable: "any",
      // A Date comes from a YAML 1.1 parser, never from JSON: no JSON value matches its branch.
      override: (context) => {
        if (context.zodSchema._zod.def.type === "date") context.jsonSchema.not = {};
      },
    }),
  };
}
