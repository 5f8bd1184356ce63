import { json, portalRoute } from "@/lib/auth/portal-route";
import { updateEnvironment } from "@/lib/environments/environments";
import { db } from "@/lib/db";

export const POST = portalRoute(
  async ({ body, user, params }) => json(await updateEnvironment({ db: db(), admin: user, slug: params.slug ?? "", input: await body() })),
  { role: "ADMIN" },
);
