-- AlterTable
ALTER TABLE "Credential" ADD COLUMN "rateLimitBurst" INTEGER;
ALTER TABLE "Credential" ADD COLUMN "rateLimitPerSecond" INTEGER;
