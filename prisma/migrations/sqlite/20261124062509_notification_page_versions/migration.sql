-- DropIndex
DROP INDEX "Notification_environmentId_clientId_createdAt_id_idx";

-- CreateIndex
CREATE INDEX "Notification_environmentId_clientId_createdAt_id_version_idx" ON "Notification"("environmentId", "clientId", "createdAt" DESC, "id" DESC, "version");
