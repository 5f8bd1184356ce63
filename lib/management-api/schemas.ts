import { z } from "zod";
import { MAX_ROTATION_GRACE_SECONDS } from "../credentials/credentials";

// Request bodies are validated with these schemas and documented from them; responses are documented from the output schemas.

export const rotateSecretBodySchema = z
  .object({
    overlapSeconds: z
      .int()
      .min(0)
      .max(MAX_ROTATION_GRACE_SECONDS)
      .meta({ description: "How long the previous secret keeps working, in seconds (0 ends it now, at most 24 hours).", example: 3600 }),
  })
  .strict();

export const createCredentialBodySchema = z
  .object({
    application: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .meta({ description: "The application's name; created when you have none of that name.", example: "billing-ci" }),
    environment: z.string().trim().min(1).max(100).meta({ description: "The slug of a self-service environment.", example: "sandbox" }),
    expiresInDays: z
      .union([z.literal(0), z.literal(30), z.literal(90), z.literal(365)])
      .default(0)
      .meta({ description: "When the secret expires: 0 (never), 30, 90 or 365 days." }),
  })
  .strict();

export const rejectAccessRequestBodySchema = z.object({ reason: z.string().trim().min(1).max(1000) }).strict();

const timestamp = z.iso.datetime().meta({ format: "date-time" });

export const secretSchema = z.object({
  id: z.string(),
  hint: z.string(),
  createdAt: timestamp,
  expiresAt: timestamp.nullable(),
  lastUsedAt: timestamp.nullable(),
});

export const credentialSchema = z.object({
  id: z.string(),
  clientId: z.string().meta({ example: "gci_3f9a0c1d2e4b5a6978808182" }),
  status: z.enum(["ACTIVE", "REVOKED"]),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  revokedAt: timestamp.nullable(),
  environment: z.object({ id: z.string(), slug: z.string(), name: z.string(), credentialType: z.enum(["GLOBAL_SSO", "PLATFORM"]) }),
  application: z.object({ id: z.string(), name: z.string(), ownerId: z.string().nullable() }),
  grants: z.array(z.object({ apiId: z.string(), apiSlug: z.string(), apiName: z.string(), scopes: z.array(z.string()) })),
  rateLimit: z.object({ burst: z.int(), perSecond: z.int() }).loose(),
  secrets: z.array(secretSchema).meta({ description: "Secrets that still work, newest first; their values are never shown again." }),
});

export const issuedSecretSchema = z.object({
  secretId: z.string(),
  clientId: z.string(),
  clientSecret: z.string().meta({ description: "Shown once; store it now.", example: "gsk_…" }),
  hint: z.string(),
  expiresAt: timestamp.nullable(),
});

export const rotatedSecretSchema = issuedSecretSchema.extend({
  previousSecretValidUntil: timestamp.nullable().meta({ description: "Until when the previous secret keeps working; null when it ended at once." }),
});

export const applicationListSchema = z.object({
  applications: z.array(z.object({ id: z.string(), name: z.string(), description: z.string(), credentials: z.array(credentialSchema) })),
});

export const credentialListSchema = z.object({ credentials: z.array(credentialSchema) });

export const createdCredentialSchema = z.object({ credential: credentialSchema, secret: issuedSecretSchema });

export const usageQuerySchema = z.object({ range: z.enum(["7d", "30d"]).default("7d").meta({ description: "The report's period." }) }).strict();

export const usageReportSchema = z
  .object({
    range: z.enum(["7d", "30d"]),
    since: timestamp,
    totals: z.object({ requests: z.int(), errors: z.int(), p50Ms: z.number(), p95Ms: z.number() }),
  })
  .loose()
  .meta({ description: "The gateway traffic of your credentials: totals, series, and breakdowns by problem, operation, API, environment and client." });

export const environmentListSchema = z.object({
  environments: z.array(z.object({ slug: z.string(), name: z.string(), credentialType: z.string(), selfService: z.boolean() }).loose()),
});

export const accessRequestListSchema = z.object({
  requests: z.array(z.object({ id: z.string(), status: z.enum(["PENDING", "APPROVED", "REJECTED"]), topic: z.string(), email: z.string() }).loose()),
});

export const accessRequestStatusQuerySchema = z
  .object({ status: z.enum(["PENDING", "APPROVED", "REJECTED"]).default("PENDING").meta({ description: "Which requests to list." }) })
  .strict();
