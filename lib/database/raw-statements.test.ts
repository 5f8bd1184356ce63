import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db";
import { migratedDatabase } from "./migrated-database";
import { pingDatabase } from "./ping";
import { withSavepoint } from "./savepoint";

let fixture: Awaited<ReturnType<typeof migratedDatabase>>;

beforeAll(async () => {
  fixture = await migratedDatabase();
});

afterAll(async () => {
  await fixture?.close();
});

const environment = (slug: string) => ({ id: `env_${slug}`, slug, name: slug, credentialType: "PLATFORM" as const });

describe("the statements Prisma's model API has no word for", () => {
  it("pings the database through Prisma's client", async () => {
    await expect(pingDatabase(fixture.db)).resolves.toBeUndefined();
  });

  it("undoes only what failed behind a savepoint, and the transaction goes on to commit", async () => {
    await inTransaction(fixture.db, async (tx) => {
      await tx.environment.create({ data: environment("kept") });
      await expect(
        withSavepoint(tx, async () => {
          await tx.environment.create({ data: environment("undone") });
          await tx.environment.create({ data: environment("kept") });
        }),
      ).rejects.toThrow();
      await withSavepoint(tx, () => tx.environment.create({ data: environment("nested") }));
    });
    const slugs = (await fixture.db.environment.findMany({ orderBy: { slug: "asc" } })).map((row) => row.slug);
    expect(slugs).toEqual(["kept", "nested"]);
  });
});
