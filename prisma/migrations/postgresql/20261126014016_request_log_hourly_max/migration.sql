-- AlterTable
ALTER TABLE "RequestLogHourly" ADD COLUMN     "latencyMsMax" DOUBLE PRECISION;
