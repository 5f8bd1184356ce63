import { z } from "zod";
import { guideSchema } from "../catalog/guides";
import { checkApiVersions, configApiFields, configEnvironmentSchema, configVersionSchema } from "../config-file/config-file-schema";
import { rateLimitPolicySchema } from "../limiters/rate-limit-policy";
import { upstreamPolicySchema } from "../upstreams/upstream-policy";
import { mcpSettingsSchema } from "../gateway/mcp/settings";
import { apiPoliciesSchema } from "../gateway/policies/policy-set";

// The administration bodies are the configuration file's entries (lib/config-file), declared there once; the slug is the path's.

export const environmentPathSchema = z.object({ slug: configEnvironmentSchema.shape.slug });
export const apiPathSchema = z.object({ slug: configApiFields.shape.slug });

const openapiDocumentSchema = z
  .record(z.string().max(200), z.unknown())
  .meta({ description: "An OpenAPI 3.0 or 3.1 document, as JSON.", example: { openapi: "3.1.0", info: { title: "Orders", version: "1.0.0" }, paths: {} } });

export const environmentBodySchema = configEnvironmentSchema.omit({ slug: true });

/** A version as the configuration file writes it, its document inline: the server reads no file named by a request. */
const inlineVersionSchema = configVersionSchema.extend({ openapi: openapiDocumentSchema.optional() });
const inlineVersionsSchema = z
  .array(inlineVersionSchema)
  .min(1)
  .max(50)
  .optional()
  .meta({ description: "The API's versions side by side, each with its OpenAPI document inline; left out, one version `v1` holding `openapi`." });

export const apiBodySchema = configApiFields
  .omit({ slug: true })
  .extend({
    openapi: openapiDocumentSchema.optional().meta({ description: "The API's OpenAPI document; left out, the API has none." }),
    versions: inlineVersionsSchema,
    guides: z
      .array(guideSchema.pick({ slug: true, title: true }).extend({ content: guideSchema.shape.markdown }).strict())
      .max(50)
      .optional()
      .meta({ description: "Markdown guides, as the configuration file writes them inline; left out, the API's guides stay as they are." }),
  })
  .superRefine(checkApiVersions);

export const apiPoliciesBodySchema = apiPoliciesSchema.meta({
  description:
    'The API\'s gateway policies, as its configuration-file entry gives them: `policies` of every route, `routes` by "METHOD /path-template" of an operation of its OpenAPI documents. They replace those it had; `{}` removes them.',
});

export const apiMcpBodySchema = mcpSettingsSchema.meta({
  description:
    'The API\'s MCP server, as its configuration-file entry gives it: `enabled`, and `include`, `exclude` and `toolNames` by "METHOD /path-template" of an operation of its documents.',
});

export const openapiValidationBodySchema = openapiDocumentSchema;

export const rateLimitBodySchema = rateLimitPolicySchema.meta({ description: "A token bucket: `burst` requests at once, refilled at `perSecond`." });

export const grantBodySchema = z
  .object({
    scopes: z
      .array(
        z
          .string()
          .max(100)
          .regex(/^[A-Za-z0-9:._-]{1,100}$/),
      )
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "The scopes to grant; left out (send `{}`), every scope the API defines." }),
  })
  .strict();

export const credentialFilterQuerySchema = z
  .object({
    environment: z.string().max(100).optional().meta({ description: "Only credentials of this environment (slug)." }),
    application: z.string().max(100).optional().meta({ description: "Only credentials of applications of this name." }),
    owner: z.email().max(320).optional().meta({ description: "Only credentials of applications this user (e-mail) owns." }),
  })
  .strict();

// Bounds on every answer's strings, arrays and integers, so clients can size what they read.
const text = (max = 200) => z.string().max(max);
const list = <T extends z.ZodType>(item: T, max = 1000) => z.array(item).max(max);
const count = () => z.int32().min(0).meta({ format: "int32" });
const policySchema = z.object({ burst: count(), perSecond: count() });
const changeSchema = z.object({
  action: z.enum(["create", "update", "delete"]),
  kind: z.enum(["environment", "api"]),
  slug: text(),
  fields: list(text(), 200).optional(),
});

export const environmentEntrySchema = configEnvironmentSchema;

export const environmentAppliedSchema = z.object({
  environment: environmentEntrySchema,
  changes: list(changeSchema, 10).meta({ description: "What changed, as `config apply` reports it; empty when it already matched." }),
});

export const apiSummarySchema = z.object({
  slug: text(),
  name: text(),
  version: text(40),
  kind: z.enum(["NOTIFICATIONS", "TOKEN", "PROXY"]),
  public: z.boolean(),
  environments: list(text(), 100),
  versions: list(z.object({ version: text(40), status: z.enum(["beta", "current", "deprecated", "retired"]) }), 100).meta({
    description: "The API's versions, oldest first: each one's gateway path segment and status.",
  }),
});

export const apiSummaryListSchema = z.object({ apis: list(apiSummarySchema) });

export const apiEntrySchema = configApiFields
  .omit({ openapi: true, guides: true, environments: true, versions: true })
  .extend({
    openapi: openapiDocumentSchema.optional(),
    versions: inlineVersionsSchema,
    guides: list(z.object({ slug: text(60), title: text(), content: text(100_000) }), 50).optional(),
    environments: z.record(text(60), upstreamPolicySchema),
  })
  .meta({ description: "A proxied API as the configuration file describes it." });

export const apiReadSchema = apiSummarySchema.extend({
  configuration: apiEntrySchema.nullable().meta({ description: "The proxied API's configuration-file entry; null for a built-in API." }),
});

export const apiAppliedSchema = z.object({
  api: apiEntrySchema,
  changes: list(changeSchema, 10).meta({ description: "What changed, as `config apply` reports it; empty when it already matched." }),
});

export const apiDeletedSchema = z.object({ changes: list(changeSchema, 10) });

export const openapiValidationSchema = z.object({
  valid: z.boolean(),
  version: text(20).optional().meta({ description: "The document's OpenAPI version, when it is valid." }),
  errors: list(z.object({ pointer: text(2000), message: text(2000) }), 100)
    .optional()
    .meta({ description: "What is wrong, where (JSON Pointer)." }),
});

export const grantSummarySchema = z.object({ clientId: text(), env: text(), application: text(), api: text(), scopes: list(text(), 100).optional() });

export const credentialRateLimitSchema = z.object({
  clientId: text(),
  env: text(),
  override: policySchema.nullable().meta({ description: "The credential's own policy; null when it follows its environment's." }),
  effective: policySchema.loose(),
});

export const environmentRateLimitSchema = z.object({ env: text(), burst: count(), perSecond: count() });
