-- Rows that broke these invariants before the database held them: an unowned application
-- whose name an older unowned one already has is renamed after its id, and of several active
-- credentials of one application in one environment all but the oldest are revoked.
UPDATE "Application" SET "name" = "name" || ' (' || "id" || ')'
WHERE "ownerId" IS NULL AND EXISTS (
    SELECT 1 FROM "Application" AS "older"
    WHERE "older"."ownerId" IS NULL AND "older"."name" = "Application"."name"
      AND ("older"."createdAt" < "Application"."createdAt" OR ("older"."createdAt" = "Application"."createdAt" AND "older"."id" < "Application"."id"))
);

UPDATE "Credential" SET "status" = 'REVOKED', "revokedAt" = strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
WHERE "status" = 'ACTIVE' AND EXISTS (
    SELECT 1 FROM "Credential" AS "older"
    WHERE "older"."status" = 'ACTIVE' AND "older"."applicationId" = "Credential"."applicationId" AND "older"."environmentId" = "Credential"."environmentId"
      AND ("older"."createdAt" < "Credential"."createdAt" OR ("older"."createdAt" = "Credential"."createdAt" AND "older"."id" < "Credential"."id"))
);

UPDATE "CredentialSecret" SET "revokedAt" = strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
WHERE "revokedAt" IS NULL AND "credentialId" IN (SELECT "id" FROM "Credential" WHERE "status" = 'REVOKED');

-- CreateIndex
CREATE UNIQUE INDEX "Application_name_unowned_key" ON "Application"("name") WHERE "ownerId" IS NULL;

-- CreateIndex
CREATE UNIQUE INDEX "Credential_one_active_key" ON "Credential"("applicationId", "environmentId") WHERE "status" = 'ACTIVE';
