-- Every change to a notification bumps its version, in the same transaction, whether or not
-- the writer did: a writer that sets "version" itself (the gateway's statements do, so that
-- RETURNING, which does not see AFTER triggers, reports the new one) is left as it is.
CREATE TRIGGER "Notification_version" AFTER UPDATE ON "Notification" WHEN NEW."version" = OLD."version" BEGIN
    UPDATE "Notification" SET "version" = OLD."version" + 1 WHERE "id" = NEW."id";
END;
