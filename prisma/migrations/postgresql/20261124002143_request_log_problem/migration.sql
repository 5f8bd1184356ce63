-- DropIndex
DROP INDEX "RequestLogHourly_hour_environment_api_clientId_method_route_key";

-- AlterTable
ALTER TABLE "RequestLog" ADD COLUMN     "problem" TEXT;

-- AlterTable
ALTER TABLE "RequestLogHourly" ADD COLUMN     "problem" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE UNIQUE INDEX "RequestLogHourly_hour_environment_api_clientId_method_route_key" ON "RequestLogHourly"("hour", "environment", "api", "clientId", "method", "route", "status", "problem");
