import "server-only";
import { z } from "zod";
import { actorOf } from "../audit/portal-actor";
import type { PortalUser } from "../actors/portal-user";
import type { Db } from "../db";
import { zodProblem } from "../http/problem";
import { deprecate, retire } from "./versions";

const optionalDate = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .pipe(z.union([z.iso.date(), z.iso.datetime({ offset: true })]).optional())
  .optional();

/** What the API's admin page posts to deprecate a version, or one of its operations. */
const deprecateInputSchema = z.strictObject({
  version: z.string().min(1, "Choose a version").max(40),
  operation: z
    .string()
    .trim()
    .max(300)
    .transform((value) => (value === "" ? undefined : value))
    .optional(),
  date: optionalDate,
  sunset: optionalDate,
});

const retireInputSchema = z.strictObject({ version: z.string().min(1, "Choose a version").max(40) });

const toDate = (text: string | undefined) => (text === undefined ? undefined : new Date(text));

type ConsoleInput = { db: Db; admin: PortalUser; slug: string; input: unknown };

/** The admin console's deprecation, over the function the CLI uses. */
export async function deprecateFromConsole({ db, admin, slug, input }: ConsoleInput) {
  const parsed = deprecateInputSchema.safeParse(input);
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const { version, operation, date, sunset } = parsed.data;
  return deprecate({ db, actor: actorOf(admin), slug, version, operation, deprecatedAt: toDate(date), sunsetAt: toDate(sunset) });
}

/** The admin console's retirement, over the function the CLI uses. */
export async function retireFromConsole({ db, admin, slug, input }: ConsoleInput) {
  const parsed = retireInputSchema.safeParse(input);
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  return retire({ db, actor: actorOf(admin), slug, version: parsed.data.version });
}
