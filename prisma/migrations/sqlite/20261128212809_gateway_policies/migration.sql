-- AlterTable
ALTER TABLE "Api" ADD COLUMN "policies" JSONB;

-- AlterTable
ALTER TABLE "RequestLog" ADD COLUMN "bytesIn" INTEGER;
ALTER TABLE "RequestLog" ADD COLUMN "bytesOut" INTEGER;
ALTER TABLE "RequestLog" ADD COLUMN "validationErrors" TEXT;
