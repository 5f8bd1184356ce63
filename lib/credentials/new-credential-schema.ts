import { z } from "zod";
import { clientJwksSchema, jwksUriSchema, trustSchema } from "./client-keys";

/** A secret that expires in this many days, or never (0). */
export const expiresInDaysSchema = z
  .union([z.literal(0), z.literal(30), z.literal(90), z.literal(365)], { message: "Choose never, 30, 90 or 365 days" })
  .default(0)
  .meta({ description: "When the secret expires: 0 (never), 30, 90 or 365 days." });

/**
 * A new credential, as the portal's form, `POST /api/v1/credentials` and `admin credential create` ask for it;
 * `/api/v1/openapi.json` documents the body from this schema.
 */
export const newCredentialSchema = z
  .strictObject({
    application: z
      .string()
      .trim()
      .min(1, "Name the application")
      .max(100, "Keep the name under 100 characters")
      .meta({ description: "The application's name; created when you have none of that name.", example: "billing-ci" }),
    environment: z
      .string()
      .trim()
      .min(1, "Choose an environment")
      .max(100)
      .meta({ description: "The slug of a self-service environment.", example: "sandbox" }),
    team: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "The id of a team where you have the admin role, which owns the application; left out, your personal team." }),
    expiresInDays: expiresInDaysSchema,
    jwks: clientJwksSchema.optional().meta({ description: "Your public keys for `private_key_jwt`: the credential then has no secret. Not with `jwksUri`." }),
    jwksUri: jwksUriSchema
      .optional()
      .meta({ description: "Where you publish your public keys for `private_key_jwt`: the credential then has no secret. Not with `jwks`." }),
    trust: trustSchema.optional().meta({
      description:
        "An external OIDC issuer whose ID tokens the client authenticates with (workload identity federation): the credential then has no secret. Not with `jwks` or `jwksUri`.",
    }),
    requireDpop: z.boolean().default(false).meta({
      description: "DPoP (RFC 9449): the client gets tokens only with a DPoP proof, and each token works only with proofs of that key.",
    }),
  })
  .refine((input) => input.jwks === undefined || input.jwksUri === undefined, {
    message: "Give your public keys inline or by URL, not both",
    path: ["jwksUri"],
  })
  .refine((input) => input.trust === undefined || (input.jwks === undefined && input.jwksUri === undefined), {
    message: "Trust an issuer or give public keys, not both",
    path: ["trust"],
  });
export type NewCredential = z.infer<typeof newCredentialSchema>;

/** The end of a secret issued now that expires in `days` days; null for 0, never. */
export function expiryFrom(days: number): Date | null {
  return days > 0 ? new Date(Date.now() + days * 24 * 60 * 60 * 1000) : null;
}
