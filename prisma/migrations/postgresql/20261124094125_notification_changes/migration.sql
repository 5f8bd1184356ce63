-- CreateTable
CREATE TABLE "NotificationChanges" (
    "environmentId" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "changes" INTEGER NOT NULL,

    CONSTRAINT "NotificationChanges_pkey" PRIMARY KEY ("environmentId","clientId")
);

-- Every insert, change and delete of a notification counts once for its owner, in the same
-- transaction, and an update that moves a notification to another owner counts for both.
-- The schema engine's PostgreSQL adapter runs a script one statement at a time, cut at every
-- semicolon, so the function's body is an escaped string in which \073 is the semicolon.
CREATE FUNCTION "notification_changes_count"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    IF TG_OP <> ''DELETE'' THEN
        INSERT INTO "NotificationChanges" ("environmentId", "clientId", "changes") VALUES (NEW."environmentId", NEW."clientId", 1)
            ON CONFLICT ("environmentId", "clientId") DO UPDATE SET "changes" = "NotificationChanges"."changes" + 1\073
    END IF\073
    IF TG_OP = ''DELETE'' OR (TG_OP = ''UPDATE'' AND (OLD."environmentId", OLD."clientId") IS DISTINCT FROM (NEW."environmentId", NEW."clientId")) THEN
        INSERT INTO "NotificationChanges" ("environmentId", "clientId", "changes") VALUES (OLD."environmentId", OLD."clientId", 1)
            ON CONFLICT ("environmentId", "clientId") DO UPDATE SET "changes" = "NotificationChanges"."changes" + 1\073
    END IF\073
    RETURN NULL\073
END\073
';

CREATE TRIGGER "Notification_changes" AFTER INSERT OR UPDATE OR DELETE ON "Notification"
    FOR EACH ROW EXECUTE FUNCTION "notification_changes_count"();
