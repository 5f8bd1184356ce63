-- CreateTable
CREATE TABLE "Plan" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "rateLimitBurst" INTEGER NOT NULL,
    "rateLimitPerSecond" INTEGER NOT NULL,
    "quotaRequests" INTEGER NOT NULL,
    "quotaPeriod" TEXT NOT NULL,
    "approval" TEXT NOT NULL DEFAULT 'auto',
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ApiPlan" (
    "apiId" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("apiId", "planId"),
    CONSTRAINT "ApiPlan_apiId_fkey" FOREIGN KEY ("apiId") REFERENCES "Api" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ApiPlan_planId_fkey" FOREIGN KEY ("planId") REFERENCES "Plan" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Subscription" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "applicationId" TEXT NOT NULL,
    "environmentId" TEXT NOT NULL,
    "apiId" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Subscription_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Subscription_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Subscription_apiId_fkey" FOREIGN KEY ("apiId") REFERENCES "Api" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Subscription_planId_fkey" FOREIGN KEY ("planId") REFERENCES "Plan" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "QuotaUsage" (
    "subscriptionId" TEXT NOT NULL,
    "periodStart" DATETIME NOT NULL,
    "used" INTEGER NOT NULL,

    PRIMARY KEY ("subscriptionId", "periodStart")
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_AccessRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "topic" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "requesterId" TEXT,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "apiId" TEXT,
    "environmentId" TEXT,
    "credentialType" TEXT,
    "applicationName" TEXT,
    "message" TEXT NOT NULL,
    "decidedById" TEXT,
    "decidedAt" DATETIME,
    "decisionReason" TEXT,
    "credentialId" TEXT,
    "planId" TEXT,
    "applicationId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "AccessRequest_requesterId_fkey" FOREIGN KEY ("requesterId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "AccessRequest_decidedById_fkey" FOREIGN KEY ("decidedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "AccessRequest_apiId_fkey" FOREIGN KEY ("apiId") REFERENCES "Api" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "AccessRequest_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "AccessRequest_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "AccessRequest_planId_fkey" FOREIGN KEY ("planId") REFERENCES "Plan" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "AccessRequest_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_AccessRequest" ("apiId", "applicationName", "createdAt", "credentialId", "credentialType", "decidedAt", "decidedById", "decisionReason", "email", "environmentId", "id", "message", "name", "requesterId", "status", "topic", "updatedAt") SELECT "apiId", "applicationName", "createdAt", "credentialId", "credentialType", "decidedAt", "decidedById", "decisionReason", "email", "environmentId", "id", "message", "name", "requesterId", "status", "topic", "updatedAt" FROM "AccessRequest";
DROP TABLE "AccessRequest";
ALTER TABLE "new_AccessRequest" RENAME TO "AccessRequest";
CREATE INDEX "AccessRequest_status_createdAt_idx" ON "AccessRequest"("status", "createdAt");
CREATE INDEX "AccessRequest_requesterId_createdAt_idx" ON "AccessRequest"("requesterId", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "Plan_slug_key" ON "Plan"("slug");

-- CreateIndex
CREATE INDEX "ApiPlan_planId_idx" ON "ApiPlan"("planId");

-- CreateIndex
CREATE INDEX "Subscription_planId_idx" ON "Subscription"("planId");

-- CreateIndex
CREATE INDEX "Subscription_apiId_idx" ON "Subscription"("apiId");

-- CreateIndex
CREATE INDEX "Subscription_environmentId_idx" ON "Subscription"("environmentId");

-- CreateIndex
CREATE UNIQUE INDEX "Subscription_applicationId_environmentId_apiId_key" ON "Subscription"("applicationId", "environmentId", "apiId");

-- What the gateway keeps (migration gateway_changes): the plans APIs offer and the subscriptions.

CREATE TRIGGER "Plan_gateway_changes_insert" AFTER INSERT ON "Plan" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Plan_gateway_changes_delete" AFTER DELETE ON "Plan" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Plan_gateway_changes_update" AFTER UPDATE ON "Plan" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiPlan_gateway_changes_insert" AFTER INSERT ON "ApiPlan" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiPlan_gateway_changes_delete" AFTER DELETE ON "ApiPlan" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiPlan_gateway_changes_update" AFTER UPDATE ON "ApiPlan" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Subscription_gateway_changes_insert" AFTER INSERT ON "Subscription" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Subscription_gateway_changes_delete" AFTER DELETE ON "Subscription" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Subscription_gateway_changes_update" AFTER UPDATE ON "Subscription" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;
