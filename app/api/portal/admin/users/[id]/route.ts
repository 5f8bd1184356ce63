import { json, portalRoute } from "@/lib/auth/portal-route";
import { changeUser } from "@/lib/accounts/users";
import { db } from "@/lib/db";

export const POST = portalRoute(
  async ({ body, user, params }) => json(await changeUser({ db: db(), admin: user, userId: params.id ?? "", input: await body() })),
  { role: "ADMIN" },
);
