-- AlterTable
ALTER TABLE "RequestLog" ADD COLUMN "problem" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_RequestLogHourly" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "hour" DATETIME NOT NULL,
    "environment" TEXT NOT NULL,
    "api" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "requests" INTEGER NOT NULL,
    "latencyMsSum" REAL NOT NULL,
    "latencyHistogram" TEXT NOT NULL,
    "problem" TEXT NOT NULL DEFAULT ''
);
INSERT INTO "new_RequestLogHourly" ("api", "clientId", "environment", "hour", "id", "latencyHistogram", "latencyMsSum", "method", "requests", "route", "status") SELECT "api", "clientId", "environment", "hour", "id", "latencyHistogram", "latencyMsSum", "method", "requests", "route", "status" FROM "RequestLogHourly";
DROP TABLE "RequestLogHourly";
ALTER TABLE "new_RequestLogHourly" RENAME TO "RequestLogHourly";
CREATE INDEX "RequestLogHourly_clientId_hour_idx" ON "RequestLogHourly"("clientId", "hour");
CREATE UNIQUE INDEX "RequestLogHourly_hour_environment_api_clientId_method_route_status_problem_key" ON "RequestLogHourly"("hour", "environment", "api", "clientId", "method", "route", "status", "problem");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
