// Compiles the production server and the admin CLI to JavaScript in dist/ (decisions 013
// and 054): the two server entries, the worker threads they start and `scripts/admin.ts`,
// each bundled whole, packages left to node_modules and `server-only` compiled away.
// `npm start`, `npm run start:gateway` and `npm run admin` run this first; it builds only
// when a source file the last build read has changed since, so instances started together
// from one folder find the build there, and each file is written under a temporary name and
// renamed, so an instance starting while another builds reads whole files. It reports a
// build on stderr: stdout belongs to the command it runs before (`admin --json`).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as esbuild from "esbuild";

const ROOT = join(import.meta.dirname, "..");
const OUT_DIR = join(ROOT, "dist");
const MANIFEST = join(OUT_DIR, "inputs.json");
const ENTRIES = [
  "server.ts",
  "gateway-server.ts",
  "server/gateway-process.ts",
  "server/portal-thread.ts",
  "server/prepare-database-process.ts",
  "lib/gateway/request-log-worker.ts",
  "scripts/admin.ts",
];
/** Besides the sources esbuild reads: this script (its options), the lockfile (the installed packages) and tsconfig.json (the path aliases). */
const ALWAYS_READ = ["scripts/build-server.mjs", "package-lock.json", "tsconfig.json"];

function fingerprint(files) {
  const hash = createHash("sha256");
  for (const file of files) {
    try {
      hash.update(`${file}\0${statSync(join(ROOT, file)).mtimeMs}\0`);
    } catch {
      hash.update(`${file}\0missing\0`);
    }
  }
  return hash.digest("hex");
}

function isCurrent() {
  try {
    const { inputs, fingerprint: built } = JSON.parse(readFileSync(MANIFEST, "utf8"));
    return fingerprint(inputs) === built;
  } catch {
    return false;
  }
}

function writeWhole(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

const serverOnlyCompiledAway = {
  name: "server-only",
  setup(bundler) {
    bundler.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
    bundler.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
  },
};

async function build() {
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: OUT_DIR,
    outbase: ROOT,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    plugins: [serverOnlyCompiledAway],
    define: { GATEHOUSE_SERVER_BUILD: "true" },
    metafile: true,
    write: false,
    logLevel: "warning",
  });
  for (const file of result.outputFiles) writeWhole(file.path, file.contents);
  const inputs = [...Object.keys(result.metafile.inputs).filter((input) => !input.includes(":")), ...ALWAYS_READ];
  writeWhole(MANIFEST, JSON.stringify({ inputs, fingerprint: fingerprint(inputs) }));
}

if (!isCurrent()) {
  const started = performance.now();
  await build();
  console.error(`Built the server in dist/ (${Math.round(performance.now() - started)} ms).`);
}
