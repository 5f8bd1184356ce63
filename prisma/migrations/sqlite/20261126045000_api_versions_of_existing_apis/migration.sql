-- Every API registered before versions existed gets its single version `v1`, holding its document and changelog.
INSERT INTO "ApiVersion" ("id", "apiId", "version", "status", "openapiDocument", "changelog", "releasedAt", "createdAt", "updatedAt")
SELECT 'apv_' || "id", "id", 'v1', 'current', "openapiDocument", "changelog", "releasedAt", "createdAt", "updatedAt" FROM "Api";
