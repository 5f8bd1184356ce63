import "server-only";
import type { Db } from "../db";

/** Resolves when the database answers a query through Prisma's client, as the health checks ask. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}
