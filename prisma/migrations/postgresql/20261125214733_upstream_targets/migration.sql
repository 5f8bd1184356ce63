-- AlterTable
ALTER TABLE "ApiEnvironment" ADD COLUMN     "upstream" JSONB;

-- Each upstream URL becomes the one target of its upstream.
UPDATE "ApiEnvironment" SET "upstream" = jsonb_build_object('targets', jsonb_build_array(jsonb_build_object('url', "upstreamUrl", 'weight', 1))) WHERE "upstreamUrl" IS NOT NULL;

ALTER TABLE "ApiEnvironment" DROP COLUMN "upstreamUrl";
