-- AlterTable
ALTER TABLE "RequestLog" ADD COLUMN "traceId" TEXT;
