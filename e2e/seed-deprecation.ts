import { createDb } from "../lib/db";
import { newId } from "../lib/ids";

/**
 * Seeds, through Prisma, an API whose v1 is deprecated and calls of one client to it, as
 * the request log holds them; `remove` takes the API and its calls away again.
 * Run: node --import tsx --import ./lib/runtime/server-only-hook.mjs e2e/seed-deprecation.ts seed|remove SLUG [CLIENT_ID]
 */
const [command, slug, clientId] = process.argv.slice(2);
const db = createDb(process.env.DATABASE_URL!);
const HOUR_MS = 3_600_000;

if (command === "seed") {
  const api = await db.api.create({
    data: { id: newId("api"), slug: slug!, name: `Orders ${slug}`, summary: "", description: "", version: "v2", tags: [], kind: "PROXY", changelog: [] },
  });
  await db.apiVersion.create({
    data: {
      id: newId("apv"),
      apiId: api.id,
      version: "v1",
      status: "deprecated",
      changelog: [],
      deprecatedAt: new Date(Date.now() - 24 * HOUR_MS),
      sunsetAt: new Date("2099-06-30T00:00:00Z"),
    },
  });
  await db.apiVersion.create({ data: { id: newId("apv"), apiId: api.id, version: "v2", status: "current", changelog: [] } });
  const call = (method: string, route: string, hoursAgo: number) => ({
    at: new Date(Date.now() - hoursAgo * HOUR_MS),
    environment: "sso-qa",
    api: slug!,
    clientId: clientId!,
    method,
    route,
    status: 200,
    latencyMs: 10,
    requestId: newId("req"),
  });
  await db.requestLog.createMany({
    data: [call("GET", "/v1/orders", 5), call("GET", "/v1/orders", 3), call("POST", "/v1/orders", 2), call("GET", "/v2/orders", 1)],
  });
} else if (command === "remove") {
  await db.requestLog.deleteMany({ where: { api: slug! } });
  await db.api.deleteMany({ where: { slug: slug! } });
}
await db.$disconnect();
