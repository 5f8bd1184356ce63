-- CreateTable
CREATE TABLE "NotificationChanges" (
    "environmentId" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "changes" INTEGER NOT NULL,

    PRIMARY KEY ("environmentId", "clientId")
);

-- Every insert, change and delete of a notification counts once for its owner, in the same
-- transaction, and an update that moves a notification to another owner counts for both.
CREATE TRIGGER "Notification_changes_insert" AFTER INSERT ON "Notification" BEGIN
    INSERT INTO "NotificationChanges" ("environmentId", "clientId", "changes") VALUES (NEW."environmentId", NEW."clientId", 1)
        ON CONFLICT ("environmentId", "clientId") DO UPDATE SET "changes" = "changes" + 1;
END;

CREATE TRIGGER "Notification_changes_update" AFTER UPDATE ON "Notification" BEGIN
    INSERT INTO "NotificationChanges" ("environmentId", "clientId", "changes") VALUES (NEW."environmentId", NEW."clientId", 1)
        ON CONFLICT ("environmentId", "clientId") DO UPDATE SET "changes" = "changes" + 1;
    INSERT INTO "NotificationChanges" ("environmentId", "clientId", "changes")
        SELECT OLD."environmentId", OLD."clientId", 1 WHERE OLD."environmentId" IS NOT NEW."environmentId" OR OLD."clientId" IS NOT NEW."clientId"
        ON CONFLICT ("environmentId", "clientId") DO UPDATE SET "changes" = "changes" + 1;
END;

CREATE TRIGGER "Notification_changes_delete" AFTER DELETE ON "Notification" BEGIN
    INSERT INTO "NotificationChanges" ("environmentId", "clientId", "changes") VALUES (OLD."environmentId", OLD."clientId", 1)
        ON CONFLICT ("environmentId", "clientId") DO UPDATE SET "changes" = "changes" + 1;
END;
