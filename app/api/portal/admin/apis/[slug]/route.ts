import { json, portalRoute } from "@/lib/auth/portal-route";
import { updateApi } from "@/lib/api-registry/api-registry";
import { db } from "@/lib/db";

export const POST = portalRoute(
  async ({ body, user, params }) => json(await updateApi({ db: db(), admin: user, slug: params.slug ?? "", input: await body() })),
  { role: "ADMIN" },
);
