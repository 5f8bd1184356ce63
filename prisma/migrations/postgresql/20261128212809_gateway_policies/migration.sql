-- AlterTable
ALTER TABLE "Api" ADD COLUMN     "policies" JSONB;

-- AlterTable
ALTER TABLE "RequestLog" ADD COLUMN     "bytesIn" INTEGER,
ADD COLUMN     "bytesOut" INTEGER,
ADD COLUMN     "validationErrors" TEXT;
