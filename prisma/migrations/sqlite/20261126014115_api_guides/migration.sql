-- AlterTable
ALTER TABLE "Api" ADD COLUMN "guides" JSONB;
