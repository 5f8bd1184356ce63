import "server-only";
import { z } from "zod";
import { type Actor, recordAudit } from "../../../audit/write-audit";
import { type DbClient, inTransaction } from "../../../db";
import { problem, validationProblem, zodProblem } from "../../../http/problem";
import { type AuthenticationMethod, authenticationMethodsSchema, storedAuthentication } from "./schema";

/** The body of `/api/v1/admin/apis/{slug}/authentication` and the console's form: the configuration file's field, alone. */
export const apiAuthenticationSchema = z.strictObject({ authentication: authenticationMethodsSchema });

export type ApiAuthentication = { authentication: AuthenticationMethod[] };

/** Every API but the token service, which is where tokens come from, not what they call. */
async function authenticatedApi(db: DbClient, slug: string) {
  const api = await db.api.findUnique({ where: { slug }, select: { id: true, kind: true, authentication: true } });
  if (!api) throw problem("not-found", { detail: `There is no API "${slug}".` });
  if (api.kind === "TOKEN")
    throw validationProblem([{ in: "path", field: "slug", message: `"${slug}" is the token service: its callers authenticate as OAuth clients` }]);
  return api;
}

/** The methods a call to the API may authenticate with, as the gateway reads them. */
export async function apiAuthentication({ db, slug }: { db: DbClient; slug: string }): Promise<ApiAuthentication> {
  return { authentication: [...storedAuthentication((await authenticatedApi(db, slug)).authentication)] };
}

/**
 * Sets the methods a call to the API may authenticate with, any of them, in the order its
 * challenges are listed: the console, /api/v1 and the configuration file all write them here.
 * Audited as `api.authentication` with the methods before and after, in the caller's
 * transaction when `db` is one. The gateway applies them within its cache's age.
 */
export async function setApiAuthentication(input: { db: DbClient; actor: Actor; slug: string; input: unknown }): Promise<ApiAuthentication> {
  const { db, actor, slug } = input;
  const parsed = apiAuthenticationSchema.safeParse(input.input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const api = await authenticatedApi(db, slug);
  const { authentication } = parsed.data;
  await inTransaction(db, async (tx) => {
    await tx.api.update({ where: { id: api.id }, data: { authentication: authentication.join(" ") } });
    await recordAudit(tx, actor, {
      action: "api.authentication",
      targetType: "api",
      targetId: slug,
      details: { from: [...storedAuthentication(api.authentication)], to: authentication },
    });
  });
  return { authentication };
}
