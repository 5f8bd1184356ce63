-- CreateEnum
CREATE TYPE "QuotaPeriod" AS ENUM ('hour', 'day', 'month');

-- CreateEnum
CREATE TYPE "PlanApproval" AS ENUM ('auto', 'manual');

-- AlterTable
ALTER TABLE "AccessRequest" ADD COLUMN     "applicationId" TEXT,
ADD COLUMN     "planId" TEXT;

-- CreateTable
CREATE TABLE "Plan" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "rateLimitBurst" INTEGER NOT NULL,
    "rateLimitPerSecond" INTEGER NOT NULL,
    "quotaRequests" INTEGER NOT NULL,
    "quotaPeriod" "QuotaPeriod" NOT NULL,
    "approval" "PlanApproval" NOT NULL DEFAULT 'auto',
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Plan_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiPlan" (
    "apiId" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ApiPlan_pkey" PRIMARY KEY ("apiId","planId")
);

-- CreateTable
CREATE TABLE "Subscription" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "environmentId" TEXT NOT NULL,
    "apiId" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Subscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QuotaUsage" (
    "subscriptionId" TEXT NOT NULL,
    "periodStart" TIMESTAMP(3) NOT NULL,
    "used" INTEGER NOT NULL,

    CONSTRAINT "QuotaUsage_pkey" PRIMARY KEY ("subscriptionId","periodStart")
);

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

-- AddForeignKey
ALTER TABLE "AccessRequest" ADD CONSTRAINT "AccessRequest_planId_fkey" FOREIGN KEY ("planId") REFERENCES "Plan"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AccessRequest" ADD CONSTRAINT "AccessRequest_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiPlan" ADD CONSTRAINT "ApiPlan_apiId_fkey" FOREIGN KEY ("apiId") REFERENCES "Api"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiPlan" ADD CONSTRAINT "ApiPlan_planId_fkey" FOREIGN KEY ("planId") REFERENCES "Plan"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_apiId_fkey" FOREIGN KEY ("apiId") REFERENCES "Api"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_planId_fkey" FOREIGN KEY ("planId") REFERENCES "Plan"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- What the gateway keeps (migration gateway_changes): the plans APIs offer and the subscriptions.

CREATE TRIGGER "Plan_gateway_changes" AFTER INSERT OR UPDATE OR DELETE ON "Plan"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();

CREATE TRIGGER "ApiPlan_gateway_changes" AFTER INSERT OR UPDATE OR DELETE ON "ApiPlan"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();

CREATE TRIGGER "Subscription_gateway_changes" AFTER INSERT OR UPDATE OR DELETE ON "Subscription"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();
