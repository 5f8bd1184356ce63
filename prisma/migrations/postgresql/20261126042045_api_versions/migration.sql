-- CreateEnum
CREATE TYPE "ApiVersionStatus" AS ENUM ('beta', 'current', 'deprecated', 'retired');

-- CreateTable
CREATE TABLE "ApiVersion" (
    "id" TEXT NOT NULL,
    "apiId" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "status" "ApiVersionStatus" NOT NULL DEFAULT 'current',
    "openapiDocument" TEXT,
    "changelog" JSONB NOT NULL,
    "releasedAt" TIMESTAMP(3),
    "deprecatedAt" TIMESTAMP(3),
    "sunsetAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ApiVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiOperationDeprecation" (
    "id" TEXT NOT NULL,
    "apiVersionId" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "deprecatedAt" TIMESTAMP(3) NOT NULL,
    "sunsetAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApiOperationDeprecation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DeprecationNotice" (
    "id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "sentAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "clientCount" INTEGER NOT NULL,

    CONSTRAINT "DeprecationNotice_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiVersion_apiId_version_key" ON "ApiVersion"("apiId", "version");

-- CreateIndex
CREATE UNIQUE INDEX "ApiOperationDeprecation_apiVersionId_method_path_key" ON "ApiOperationDeprecation"("apiVersionId", "method", "path");

-- CreateIndex
CREATE UNIQUE INDEX "DeprecationNotice_subject_key" ON "DeprecationNotice"("subject");

-- AddForeignKey
ALTER TABLE "ApiVersion" ADD CONSTRAINT "ApiVersion_apiId_fkey" FOREIGN KEY ("apiId") REFERENCES "Api"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiOperationDeprecation" ADD CONSTRAINT "ApiOperationDeprecation_apiVersionId_fkey" FOREIGN KEY ("apiVersionId") REFERENCES "ApiVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;
