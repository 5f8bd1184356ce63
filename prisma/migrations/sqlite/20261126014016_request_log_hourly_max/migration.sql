-- AlterTable
ALTER TABLE "RequestLogHourly" ADD COLUMN "latencyMsMax" REAL;
