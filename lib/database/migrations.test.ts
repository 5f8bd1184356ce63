import { describe, expect, it } from "vitest";
import { schemaDrift } from "./drift";

const POSTGRES_SERVER_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://root@127.0.0.1:5432/postgres";
const HOW_TO_FIX = "prisma/schema.prisma and the migrations disagree; run npm run db:migration -- <name>";

describe("the latest migrations match prisma/schema.prisma", () => {
  it("for SQLite", async () => {
    expect(await schemaDrift("sqlite"), HOW_TO_FIX).toEqual([]);
  });

  it("for PostgreSQL (in temporary databases on the local server)", async () => {
    expect(await schemaDrift("postgresql", POSTGRES_SERVER_URL), HOW_TO_FIX).toEqual([]);
  });
});
