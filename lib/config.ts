import { z } from "zod";
import { brandImageSchema } from "./brand-image";
import { commandScope } from "./command-scope";
import { DEFAULT_DATABASE_POOL_SIZE } from "./database-url";
import { loadEnvFile } from "./env-file";
import { passwordSchema } from "./password-policy";
import { parseTrustedProxies } from "./http/client-address";

/** Used only outside production so that `npm start` works with nothing configured. */
export const DEVELOPMENT_AUTH_SECRET = "gatehouse-development-secret-do-not-use-in-production";

const MIB = 1024 * 1024;

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === "" ? undefined : value));

const envSchema = z
  .object({
    APP_ENV: z.enum(["development", "test", "production"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** the gateway's own origin, where the portal's links, samples and Swagger servers send calls (docs/decisions/045) */
    GATEWAY_PUBLIC_URL: z
      .url({ protocol: /^https?$/ })
      .refine((value) => /^https?:\/\/[^/?#]+\/?$/i.test(value), "must be an origin (scheme, host and port) without a path")
      .optional(),
    DATABASE_URL: z
      .string()
      .regex(/^(file:|postgres(ql)?:\/\/)/, "must start with file: or postgres(ql)://")
      .default("file:./data/gatehouse.db"),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(DEFAULT_DATABASE_POOL_SIZE),
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters (for example from `openssl rand -base64 32`)").optional(),
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
    REDIS_KEY_PREFIX: z.string().max(100).default("gatehouse:"),
    /** read by `npm run start:gateway` only; `npm start` keeps one gateway in its process */
    GATEWAY_PROCESSES: z.union([z.literal("auto"), z.coerce.number().int().min(1).max(256)], 'must be "auto" or a whole number from 1 to 256').optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    SEED_DEMO: z.enum(["0", "1"]).optional(),
    SEED_ADMIN_PASSWORD: passwordSchema.optional(),
    SEED_DEVELOPER_PASSWORD: passwordSchema.optional(),
    PORTAL_ENVIRONMENT: optionalString,
    PORTAL_NAME: z.string().trim().min(1).max(60, "must be at most 60 characters").default("Gatehouse"),
    PORTAL_LOGO: brandImageSchema.optional(),
    PORTAL_FAVICON: brandImageSchema.optional(),
    PORTAL_ACCENT: z
      .string()
      .regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, "must be a CSS hex colour, #rgb or #rrggbb")
      .default("#1d4ed8"),
    OIDC_ISSUER: z.url().optional(),
    OIDC_CLIENT_ID: optionalString,
    OIDC_CLIENT_SECRET: optionalString,
    TRUSTED_PROXIES: z
      .string()
      .optional()
      .superRefine((value, ctx) => {
        try {
          parseTrustedProxies(value);
        } catch (error) {
          ctx.addIssue({ code: "custom", message: (error as Error).message });
        }
      }),
    UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
    GATEWAY_CACHE_MAX_AGE_MS: z.coerce.number().int().min(100).max(60_000).default(4_000),
    GATEWAY_RESPONSE_CACHE_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(2 ** 40)
      .default(64 * MIB),
    GATEWAY_RESPONSE_CACHE_MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(512 * MIB)
      .default(MIB),
    SIGNUP: z.enum(["open", "approval", "closed"]).default("approval"),
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    OTEL_SERVICE_NAME: z.string().max(255).default("gatehouse"),
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    MAIL_FROM: z.string().trim().min(3).max(320).optional(),
    OUTBOUND_ALLOW_PRIVATE: z.enum(["0", "1"]).default("0"),
    SECRET_SCANNING_KEYS_URL: z.url({ protocol: /^https?$/ }).default("https://api.github.com/meta/public_keys/secret_scanning"),
  })
  .superRefine((env, ctx) => {
    if (env.APP_ENV === "production" && (!env.AUTH_SECRET || env.AUTH_SECRET === DEVELOPMENT_AUTH_SECRET)) {
      ctx.addIssue({ code: "custom", path: ["AUTH_SECRET"], message: "is required in production (APP_ENV=production)" });
    }
    const oidc = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET].filter(Boolean).length;
    if (oidc !== 0 && oidc !== 3) {
      ctx.addIssue({ code: "custom", path: ["OIDC_ISSUER"], message: "OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together" });
    }
  });

/** Every variable the configuration reads, as docs/DESIGN.md §11 lists them. */
export const CONFIGURATION_VARIABLES = Object.keys(envSchema.shape);

export type Config = ReturnType<typeof parseConfig>;
/** The portal's name, logo, favicon and accent colour, as its operators set them. */
export type Brand = Config["brand"];

export class ConfigError extends Error {}

/** Parses the environment; the error names every variable that is missing or wrong. */
export function parseConfig(env: Record<string, string | undefined>) {
  const blanksRemoved = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = envSchema.safeParse(blanksRemoved);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration (process environment or .env): ${problems.join("; ")}`);
  }
  const parsed = result.data;
  const publicUrl = (parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, "");
  return {
    appEnv: parsed.APP_ENV,
    port: parsed.PORT,
    publicUrl,
    /** unset: the gateway is served under `publicUrl` */
    gatewayPublicUrl: parsed.GATEWAY_PUBLIC_URL?.replace(/\/+$/, ""),
    databaseUrl: parsed.DATABASE_URL,
    databasePoolSize: parsed.DATABASE_POOL_SIZE,
    databaseProvider: parsed.DATABASE_URL.startsWith("file:") ? ("sqlite" as const) : ("postgresql" as const),
    authSecret: parsed.AUTH_SECRET ?? DEVELOPMENT_AUTH_SECRET,
    redisUrl: parsed.REDIS_URL,
    redisKeyPrefix: parsed.REDIS_KEY_PREFIX,
    /** unset: `auto` with Redis, 1 without */
    gatewayProcesses: parsed.GATEWAY_PROCESSES,
    logLevel: parsed.LOG_LEVEL,
    // A production database gets demo accounts and secrets only when asked for them by name.
    seedDemo: parsed.SEED_DEMO === undefined ? parsed.APP_ENV !== "production" : parsed.SEED_DEMO === "1",
    seedAdminPassword: parsed.SEED_ADMIN_PASSWORD,
    seedDeveloperPassword: parsed.SEED_DEVELOPER_PASSWORD,
    portalEnvironment: parsed.PORTAL_ENVIRONMENT,
    brand: { name: parsed.PORTAL_NAME, logo: parsed.PORTAL_LOGO, favicon: parsed.PORTAL_FAVICON, accent: parsed.PORTAL_ACCENT },
    oidc:
      parsed.OIDC_ISSUER && parsed.OIDC_CLIENT_ID && parsed.OIDC_CLIENT_SECRET
        ? { issuer: parsed.OIDC_ISSUER, clientId: parsed.OIDC_CLIENT_ID, clientSecret: parsed.OIDC_CLIENT_SECRET }
        : undefined,
    upstreamTimeoutMs: parsed.UPSTREAM_TIMEOUT_MS,
    gatewayCacheMaxAgeMs: parsed.GATEWAY_CACHE_MAX_AGE_MS,
    responseCache: { maxBytes: parsed.GATEWAY_RESPONSE_CACHE_MAX_BYTES, maxBodyBytes: parsed.GATEWAY_RESPONSE_CACHE_MAX_BODY_BYTES },
    signup: parsed.SIGNUP,
    metricsToken: parsed.METRICS_TOKEN,
    metricsPort: parsed.METRICS_PORT,
    trustedProxies: parseTrustedProxies(parsed.TRUSTED_PROXIES),
    requestLogRetentionDays: parsed.REQUEST_LOG_RETENTION_DAYS,
    // Without SMTP_URL email is off: events are still recorded, but no email delivery is created.
    email: parsed.SMTP_URL
      ? { smtpUrl: parsed.SMTP_URL, from: parsed.MAIL_FROM ?? `${parsed.PORTAL_NAME} <noreply@${new URL(publicUrl).hostname}>` }
      : undefined,
    outboundAllowPrivate: parsed.OUTBOUND_ALLOW_PRIVATE === "1",
    secretScanningKeysUrl: parsed.SECRET_SCANNING_KEYS_URL,
    tracing: parsed.OTEL_EXPORTER_OTLP_ENDPOINT ? { endpoint: parsed.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: parsed.OTEL_SERVICE_NAME } : undefined,
  };
}

let cached: Config | undefined;
const COMMAND_CONFIG = Symbol("config");

/**
 * The process's configuration: its environment, then `.env`, parsed once. Inside a command
 * run in-process (`lib/command-scope.ts`), that command's environment, parsed once for it.
 */
export function config(): Config {
  const scope = commandScope();
  if (scope) return scope.slot(COMMAND_CONFIG, () => parseConfig(scope.env));
  if (!cached) loadEnvFile();
  cached ??= parseConfig(process.env);
  return cached;
}
