import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashClientSecret, secretHashesEqual } from "../lib/oauth/client-secrets";
import { config } from "../lib/config";
import { migratedDatabase } from "../lib/database/migrated-database";
import { seed } from "./seed";

let fixture: Awaited<ReturnType<typeof migratedDatabase>>;

beforeAll(async () => {
  fixture = await migratedDatabase();
});

afterAll(async () => {
  await fixture?.close();
});

describe("demo credentials in the seed", () => {
  it("gives the demo application a credential in sso-qa and platform-dev and prints each secret once", async () => {
    const report = await seed(fixture.db, { seedDemo: true, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
    const credentials = await fixture.db.credential.findMany({ include: { environment: true, secrets: true, grants: true, application: true } });
    expect(credentials.map((credential) => credential.environment.slug).sort()).toEqual(["platform-dev", "sso-qa"]);
    for (const credential of credentials) {
      expect(credential.application.name).toBe("Demo Application");
      expect(credential.grants.map((grant) => grant.scopes)).toEqual(["notifications:read notifications:write"]);
      const line = report.find((entry) => entry.includes(credential.clientId));
      const secret = /secret: (gsk_[A-Za-z0-9_-]{43})/.exec(line ?? "")?.[1];
      expect(secret).toBeDefined();
      expect(secretHashesEqual(hashClientSecret(secret!, config().authSecret), credential.secrets[0]!.hash)).toBe(true);
    }
    expect(await seed(fixture.db, { seedDemo: true, seedAdminPassword: undefined, seedDeveloperPassword: undefined })).toEqual([]);
    expect(await fixture.db.credential.count()).toBe(2);
  });
});
