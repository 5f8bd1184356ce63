import { z } from "zod";

/** The one password rule for the portal, the admin CLI and the seed variables. */
export const PASSWORD_MIN_LENGTH = 12;

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(200, "must be at most 200 characters");
