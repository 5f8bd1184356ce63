import { z } from "zod";

export const AUTHENTICATION_METHODS = ["oauth2", "apiKey"] as const;

export type AuthenticationMethod = (typeof AUTHENTICATION_METHODS)[number];

/** The methods a call to an API may authenticate with, any of them, in the order its challenges are listed. */
export const authenticationMethodsSchema = z
  .array(z.enum(AUTHENTICATION_METHODS))
  .min(1, "List at least one method: oauth2, apiKey")
  .max(AUTHENTICATION_METHODS.length, "List each method once")
  .refine((methods) => new Set(methods).size === methods.length, "List each method once")
  .meta({
    description: "The authentication methods a call may use, any of them: oauth2 (a token of the token endpoint), apiKey (a gk_ key). Left out, [oauth2].",
  });

export const DEFAULT_AUTHENTICATION: readonly AuthenticationMethod[] = ["oauth2"];

/** The stored column (space-separated) as methods; one that does not read as any counts as the default. */
export function storedAuthentication(column: string | null | undefined): readonly AuthenticationMethod[] {
  const parsed = authenticationMethodsSchema.safeParse((column ?? "").split(" ").filter(Boolean));
  return parsed.success ? parsed.data : DEFAULT_AUTHENTICATION;
}
