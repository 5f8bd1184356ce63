-- AlterTable
ALTER TABLE "AgentClient" ADD COLUMN "host" TEXT;
