import { deprecateFromConsole } from "@/lib/api-lifecycle/admin-lifecycle";
import { json, portalRoute } from "@/lib/auth/portal-route";
import { db } from "@/lib/db";

export const POST = portalRoute(
  async ({ body, user, params }) => json(await deprecateFromConsole({ db: db(), admin: user, slug: params.slug ?? "", input: await body() })),
  { role: "ADMIN" },
);
