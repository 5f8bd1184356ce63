-- CreateTable
CREATE TABLE "ApiVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "apiId" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'current',
    "openapiDocument" TEXT,
    "changelog" JSONB NOT NULL,
    "releasedAt" DATETIME,
    "deprecatedAt" DATETIME,
    "sunsetAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ApiVersion_apiId_fkey" FOREIGN KEY ("apiId") REFERENCES "Api" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApiOperationDeprecation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "apiVersionId" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "deprecatedAt" DATETIME NOT NULL,
    "sunsetAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ApiOperationDeprecation_apiVersionId_fkey" FOREIGN KEY ("apiVersionId") REFERENCES "ApiVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DeprecationNotice" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "subject" TEXT NOT NULL,
    "sentAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "clientCount" INTEGER NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiVersion_apiId_version_key" ON "ApiVersion"("apiId", "version");

-- CreateIndex
CREATE UNIQUE INDEX "ApiOperationDeprecation_apiVersionId_method_path_key" ON "ApiOperationDeprecation"("apiVersionId", "method", "path");

-- CreateIndex
CREATE UNIQUE INDEX "DeprecationNotice_subject_key" ON "DeprecationNotice"("subject");
