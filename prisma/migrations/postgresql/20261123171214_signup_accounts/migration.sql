-- AlterEnum
ALTER TYPE "AccessRequestTopic" ADD VALUE 'ACCOUNT';
