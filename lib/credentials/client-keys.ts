import { z } from "zod";
import { ASSERTION_ALGORITHMS } from "../oauth/assertion-rules";
import { MAX_SUBJECT_STARS } from "../oauth/subject-pattern";

/** Members of a JWK that belong to a private or symmetric key; a client registers public keys only. */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

const publicJwkSchema = z
  .object({
    kty: z.enum(["RSA", "EC", "OKP"], { message: "must be RSA, EC or OKP (public keys for RS256, PS256, ES256 or EdDSA)" }),
    kid: z.string().min(1).max(200).optional(),
    alg: z.enum(ASSERTION_ALGORITHMS as [string, ...string[]]).optional(),
    use: z.literal("sig").optional(),
  })
  .loose()
  .refine((key) => !PRIVATE_MEMBERS.some((member) => member in key), { message: "holds private key material: register the public key only" });

export const MAX_CLIENT_KEYS = 10;

export const clientJwksSchema = z
  .object(
    { keys: z.array(publicJwkSchema).min(1, "needs at least one key").max(MAX_CLIENT_KEYS, `holds at most ${MAX_CLIENT_KEYS} keys`) },
    { error: 'must be a JSON Web Key Set, {"keys": [...]}' },
  )
  .meta({ description: "The client's public keys (RFC 7517 JWKS) for `private_key_jwt`; private members are refused." });

export const jwksUriSchema = z
  .url({ protocol: /^https?$/, message: "must be an https URL" })
  .max(2048)
  .meta({ description: "Where the client publishes its public keys for `private_key_jwt`; fetched under the outbound policy and kept 5 minutes." });

const trustUrl = z.url({ protocol: /^https?$/, message: "must be an https URL" }).max(2048);

export const trustSchema = z.strictObject({
  issuer: trustUrl.meta({
    description: "The external OIDC issuer, exactly as its tokens name it in `iss`.",
    example: "https://token.actions.githubusercontent.com",
  }),
  audience: z.string().trim().min(1).max(500).meta({ description: "The audience its tokens must carry in `aud`.", example: "https://gatehouse.example.com" }),
  subject: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .regex(new RegExp(`^[^*]*(?:\\*[^*]*){0,${MAX_SUBJECT_STARS}}$`), { message: `holds at most ${MAX_SUBJECT_STARS} "*"` })
    .meta({
      description: `The \`sub\` its tokens must carry: exact, or with \`*\` (at most ${MAX_SUBJECT_STARS}) for any run of characters.`,
      example: "repo:acme/billing:ref:refs/heads/main",
    }),
});
export type Trust = z.infer<typeof trustSchema>;

/**
 * How a credential's client authenticates, when not with a secret: its public keys, inline (a JWKS,
 * validated on use) or by URL, or the ID tokens of an issuer it trusts (workload identity federation).
 */
export type ClientKeys = { jwks: unknown } | { jwksUri: string } | { trust: unknown };
