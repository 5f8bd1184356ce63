// Turbopack drops these modules when it skips through the re-exports of their
// packages, although each package lists them under `sideEffects`; without them
// the `refract` functions Swagger UI needs for OpenAPI 3.1 documents are missing
// ("refract is not a function", vercel/next.js#86507). Importing them by path
// runs them. Remove once Turbopack honours `sideEffects` here.
import "../../node_modules/@swagger-api/apidom-core/src/refractor/registration.mjs";
import "../../node_modules/@swagger-api/apidom-ns-json-schema-draft-4/src/refractor/registration.mjs";
import "../../node_modules/@swagger-api/apidom-ns-json-schema-draft-6/src/refractor/registration.mjs";
import "../../node_modules/@swagger-api/apidom-ns-json-schema-draft-7/src/refractor/registration.mjs";
import "../../node_modules/@swagger-api/apidom-ns-json-schema-2019-09/src/refractor/registration.mjs";
import "../../node_modules/@swagger-api/apidom-ns-json-schema-2020-12/src/refractor/registration.mjs";
import "../../node_modules/@swagger-api/apidom-ns-openapi-3-1/src/refractor/registration.mjs";
import "../../node_modules/@swagger-api/apidom-ns-openapi-3-2/src/refractor/registration.mjs";
