import { z } from "zod";
import { trustSchema } from "../credentials/client-keys";
import { MAX_ROTATION_GRACE_SECONDS } from "../credentials/credentials";

// Request bodies are validated with these schemas and documented from them; responses are documented from the output schemas.

export const rotateSecretBodySchema = z
  .object({
    overlapSeconds: z
      .int()
      .min(0)
      .max(MAX_ROTATION_GRACE_SECONDS)
      .meta({ format: "int32", description: "How long the previous secret keeps working, in seconds (0 ends it now, at most 24 hours).", example: 3600 }),
  })
  .strict();

export const trustBodySchema = trustSchema;

export const rejectAccessRequestBodySchema = z.object({ reason: z.string().trim().min(1).max(1000) }).strict();

// Bounds on every answer's strings, arrays and integers, so clients can size what they read.
const text = (max = 200) => z.string().max(max);
const list = <T extends z.ZodType>(item: T, max = 1000) => z.array(item).max(max);
const count = () => z.int32().min(0).meta({ format: "int32" });
const timestamp = z.iso.datetime().max(30).meta({ format: "date-time" });

export const secretSchema = z.object({ id: text(), hint: text(8), createdAt: timestamp, expiresAt: timestamp.nullable(), lastUsedAt: timestamp.nullable() });

export const credentialSchema = z.object({
  id: text(),
  clientId: text().meta({ example: "gci_3f9a0c1d2e4b5a6978808182" }),
  status: z.enum(["ACTIVE", "REVOKED"]),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  revokedAt: timestamp.nullable(),
  environment: z.object({ id: text(), slug: text(), name: text(), credentialType: z.enum(["GLOBAL_SSO", "PLATFORM"]) }),
  application: z.object({ id: text(), name: text(), ownerId: text().nullable() }),
  grants: list(z.object({ apiId: text(), apiSlug: text(), apiName: text(), scopes: list(text()) })),
  rateLimit: z.object({ burst: count(), perSecond: count() }).loose(),
  authentication: z
    .object({ method: z.enum(["client_secret", "private_key_jwt", "federated"]) })
    .loose()
    .meta({
      description:
        "How the client authenticates at the token endpoint: with its keys it has `jwksUri` and `keyIds`; federated, the trusted `issuer`, `audience` and `subject`.",
    }),
  secrets: list(secretSchema, 2).meta({ description: "Secrets that still work, newest first; their values are never shown again." }),
});

export const issuedSecretSchema = z.object({
  secretId: text(),
  clientId: text(),
  clientSecret: text().meta({ description: "Shown once; store it now.", example: "gsk_…" }),
  hint: text(8),
  expiresAt: timestamp.nullable(),
});

export const rotatedSecretSchema = issuedSecretSchema.extend({
  previousSecretValidUntil: timestamp.nullable().meta({ description: "Until when the previous secret keeps working; null when it ended at once." }),
});

export const applicationListSchema = z.object({
  applications: list(z.object({ id: text(), name: text(), description: text(2000), credentials: list(credentialSchema) })),
});

export const credentialListSchema = z.object({ credentials: list(credentialSchema) });

export const createdCredentialSchema = z.object({
  credential: credentialSchema,
  secret: issuedSecretSchema.nullable().meta({ description: "The first secret, shown once; null for a credential with keys or a trusted issuer." }),
});

export const usageQuerySchema = z.object({ range: z.enum(["7d", "30d"]).default("7d").meta({ description: "The report's period." }) }).strict();

export const usageReportSchema = z
  .object({
    range: z.enum(["7d", "30d"]),
    since: timestamp,
    totals: z.object({ requests: count(), errors: count(), p50Ms: z.number().min(0), p95Ms: z.number().min(0) }),
  })
  .loose()
  .meta({ description: "The gateway traffic of your credentials: totals, series, and breakdowns by problem, operation, API, environment and client." });

export const environmentListSchema = z.object({
  environments: list(z.object({ slug: text(), name: text(), credentialType: z.enum(["GLOBAL_SSO", "PLATFORM"]), selfService: z.boolean() }).loose()),
});

export const accessRequestListSchema = z.object({
  requests: list(z.object({ id: text(), status: z.enum(["PENDING", "APPROVED", "REJECTED"]), topic: text(), email: text(320) }).loose(), 200),
});

export const accessRequestStatusQuerySchema = z
  .object({ status: z.enum(["PENDING", "APPROVED", "REJECTED"]).default("PENDING").meta({ description: "Which requests to list." }) })
  .strict();
