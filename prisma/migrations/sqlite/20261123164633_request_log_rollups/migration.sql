-- CreateTable
CREATE TABLE "RequestLogHourly" (
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
    "latencyHistogram" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "RequestLogHourly_clientId_hour_idx" ON "RequestLogHourly"("clientId", "hour");

-- CreateIndex
CREATE UNIQUE INDEX "RequestLogHourly_hour_environment_api_clientId_method_route_status_key" ON "RequestLogHourly"("hour", "environment", "api", "clientId", "method", "route", "status");

-- CreateIndex
CREATE INDEX "RequestLog_requestId_idx" ON "RequestLog"("requestId");
