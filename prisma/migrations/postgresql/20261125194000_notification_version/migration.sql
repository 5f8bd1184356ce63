-- Every change to a notification bumps its version, in the same transaction, whether or not
-- the writer did: a writer that sets "version" itself is left as it is. The function's body
-- is an escaped string in which \073 is the semicolon (see notification_changes).
CREATE FUNCTION "notification_version_bump"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    IF NEW."version" = OLD."version" THEN
        NEW."version" := OLD."version" + 1\073
    END IF\073
    RETURN NEW\073
END\073
';

CREATE TRIGGER "Notification_version" BEFORE UPDATE ON "Notification"
    FOR EACH ROW EXECUTE FUNCTION "notification_version_bump"();
