-- AlterTable
ALTER TABLE "Api" ADD COLUMN "mcp" JSONB;

-- The built-in Notifications API serves MCP from the start (issue 52).
UPDATE "Api" SET "mcp" = '{"enabled":true}' WHERE "kind" = 'NOTIFICATIONS';
