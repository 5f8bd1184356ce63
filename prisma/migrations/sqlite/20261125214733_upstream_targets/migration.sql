-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ApiEnvironment" (
    "apiId" TEXT NOT NULL,
    "environmentId" TEXT NOT NULL,
    "upstream" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("apiId", "environmentId"),
    CONSTRAINT "ApiEnvironment_apiId_fkey" FOREIGN KEY ("apiId") REFERENCES "Api" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ApiEnvironment_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Each upstream URL becomes the one target of its upstream.
INSERT INTO "new_ApiEnvironment" ("apiId", "createdAt", "environmentId", "upstream")
SELECT "apiId", "createdAt", "environmentId",
       CASE WHEN "upstreamUrl" IS NULL THEN NULL ELSE json_object('targets', json_array(json_object('url', "upstreamUrl", 'weight', 1))) END
FROM "ApiEnvironment";
DROP TABLE "ApiEnvironment";
ALTER TABLE "new_ApiEnvironment" RENAME TO "ApiEnvironment";
CREATE INDEX "ApiEnvironment_environmentId_idx" ON "ApiEnvironment"("environmentId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
