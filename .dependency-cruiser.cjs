// The layers of ARCHITECTURE.md, checked by `npm run lint:deps` (part of `npm test`). Each layer
// may import the ones below it, never the ones above; every rule below names its layer and what it
// must not import, so a violation says which line of the table it breaks. That no folder of lib/
// imports another that imports it back is checked after these rules, by
// scripts/check-folder-cycles.mjs on the same options.

/** Test code: the top layer, which may import any other and which none imports. */
const TEST_FILE = "\\.(test|spec)\\.tsx?$";
const TESTS = "^(tests|e2e)/";

const SCRIPTS = "^scripts/";
const ENTRIES = "^(server|gateway-server)\\.ts$";
const SERVER = "^server/";
const APP = "^(app/|proxy\\.ts$)";
const COMPONENTS = "^components/";
const PRISMA = "^prisma/";
/** The adapters: the admin CLI, the management API and the configuration file, each a way in over the domain's services. */
const ADAPTERS = "^lib/(admin-cli|management-api|config-file)/";
const GATEWAY = "^lib/gateway/";
/** Every folder of lib/ that the table does not name on a row of its own. */
const DOMAIN = "^lib/(?!admin-cli/|management-api/|config-file/|gateway/|database/|data-plane/|runtime/|http/)[^/]+/";
const DATABASE = "^lib/database/";
const DATA_PLANE = "^lib/data-plane/";
/** What the data plane keeps to itself: each dialect's modules, its SQL and its time encodings. */
const DATA_PLANE_DIALECTS = "^lib/data-plane/([^/]*(sqlite|postgres)|[^/]*-(queries|columns)|time|sqlite-pragmas|dialect(-for-connection)?)\\.ts$";
const RUNTIME = "^lib/runtime/";
/** lib's own files (config, log, ids, the Prisma client) and lib/http/. */
const SHARED = "^lib/([^/]+$|http/)";

const REACT_OR_NEXT = "^node_modules/(react|react-dom|next|next-auth|@next/[^/]+|swagger-ui-react|@visx/[^/]+)/";

/** A layer's modules must not import `above`; its tests may, to set up what they test. */
function layer(name, from, above, comment) {
  return { name, severity: "error", comment, from: { path: from, pathNot: TEST_FILE }, to: { path: above } };
}

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "This import closes a cycle of modules (type-only imports count too). Move what both sides need into a lower module that both import; see the layer table in ARCHITECTURE.md.",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-tests-outside-tests",
      severity: "error",
      comment:
        "Only tests/ and e2e/ import from tests/ and e2e/, test files elsewhere included: a lib/**/*.test.ts that needs tests/support belongs in tests/unit/; a helper that is really domain code belongs in lib/.",
      from: { pathNot: TESTS },
      to: { path: TESTS },
    },
    {
      name: "gateway-without-react-or-next",
      severity: "error",
      comment:
        "lib/gateway/ takes a plain request and gives a plain response: nothing it imports, directly or through other modules, comes from React or Next, so that `npm run start:gateway` loads neither.",
      from: { path: GATEWAY },
      to: { path: REACT_OR_NEXT, reachable: true },
    },
    {
      name: "lib-not-importing-outer-layers",
      severity: "error",
      comment:
        "lib/ is framework-free domain code: it imports nothing from app/, components/, server/, scripts/ or the root entries (server.ts, gateway-server.ts, proxy.ts); pass what it needs in as arguments.",
      from: { path: "^lib/" },
      to: { path: `^(app|components|server|scripts)/|${ENTRIES}|^proxy\\.ts$` },
    },
    layer("entries-below-scripts", ENTRIES, SCRIPTS, "server.ts and gateway-server.ts sit below scripts/: they import nothing from scripts/."),
    layer(
      "server-below-entries",
      SERVER,
      `${SCRIPTS}|${ENTRIES}`,
      "server/ (the process around the entries) sits below scripts/ and the entries: it imports nothing from scripts/, server.ts or gateway-server.ts.",
    ),
    layer(
      "app-below-server",
      APP,
      `${SCRIPTS}|${ENTRIES}|${SERVER}`,
      "app/ and proxy.ts (Next's routes and request hook) sit below server/: they import nothing from scripts/, the entries or server/.",
    ),
    layer(
      "components-below-app",
      COMPONENTS,
      `${SCRIPTS}|${ENTRIES}|${SERVER}|${APP}`,
      "components/ (React components) sit below app/: they import nothing from app/, proxy.ts, server/, the entries or scripts/.",
    ),
    layer(
      "prisma-below-components",
      PRISMA,
      `${SCRIPTS}|${ENTRIES}|${SERVER}|${APP}|${COMPONENTS}`,
      "prisma/ (schema, migrations, the seed) sits below components/ and above lib/: the seed calls lib's services and imports nothing from components/, app/, server/, the entries or scripts/.",
    ),
    layer(
      "lib-below-prisma",
      "^lib/",
      PRISMA,
      "lib/ sits below prisma/: the seed calls lib's services, never the other way round. Only tests may import the seed, to set up their database.",
    ),
    layer(
      "gateway-below-adapters",
      GATEWAY,
      ADAPTERS,
      "lib/gateway/ sits below the adapters (lib/admin-cli/, lib/management-api/, lib/config-file/): the gateway imports none of them.",
    ),
    layer(
      "domain-below-adapters",
      DOMAIN,
      ADAPTERS,
      "lib/<domain>/ sits below the adapters (lib/admin-cli/, lib/management-api/, lib/config-file/), which call its services: the domain imports none of them. Pass what the domain needs in as an argument, or move a declaration both use down into the domain.",
    ),
    layer(
      "domain-below-gateway",
      DOMAIN,
      GATEWAY,
      "lib/<domain>/ sits below lib/gateway/: the gateway builds on the domain (token service, built-in APIs, limiters), the domain imports nothing from lib/gateway/. Move what both need into the domain (e.g. lib/built-in-apis/, lib/limiters/) or lib/http/.",
    ),
    layer(
      "database-below-domain",
      DATABASE,
      `${ADAPTERS}|${GATEWAY}|${DOMAIN}`,
      "lib/database/ (schema, migrations, client generation) sits below lib/<domain>/: it imports nothing from the adapters, lib/gateway/ or lib's domain folders.",
    ),
    layer(
      "data-plane-below-database",
      DATA_PLANE,
      `${ADAPTERS}|${GATEWAY}|${DOMAIN}|${DATABASE}`,
      "lib/data-plane/ (the gateway's connection per dialect and every raw SQL statement: the stores' interfaces, row types and dialect implementations) sits below lib/database/: it imports nothing from lib/database/, lib's domain folders, lib/gateway/ or the adapters. A type both a store and the domain need belongs in lib/data-plane/.",
    ),
    {
      name: "data-plane-dialects-stay-inside",
      severity: "error",
      comment:
        "lib/gateway/, the adapters and lib's domain folders use lib/data-plane/ through its interfaces, row types and factories (`createNotificationStore(connection)`, `createRequestLogInsert(databaseUrl)`, …), never a dialect's module or adapter (`dialect.ts`), SQL text or time encoding.",
      from: { path: `${ADAPTERS}|${GATEWAY}|${DOMAIN}`, pathNot: TEST_FILE },
      to: { path: DATA_PLANE_DIALECTS },
    },
    layer(
      "runtime-below-data-plane",
      RUNTIME,
      `${ADAPTERS}|${GATEWAY}|${DOMAIN}|${DATABASE}|${DATA_PLANE}`,
      "lib/runtime/ (how Node runs Gatehouse: hooks, threads, the project root) sits below lib/data-plane/: it imports nothing from any other folder of lib/.",
    ),
    layer(
      "shared-at-the-bottom",
      SHARED,
      "^lib/(?!http/)[^/]+/",
      "lib's own files (config, log, ids, db) and lib/http/ are the bottom layer that all of lib shares: they import nothing from lib's folders but lib/http/. Move an HTTP-level declaration a domain also needs down into lib/http/.",
    ),
  ],
  options: {
    doNotFollow: { path: "^node_modules/" },
    exclude: { path: "^(lib/generated/|dist/|\\.next)" },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports are dependencies too: they tie the layers' declarations together.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
  },
};
