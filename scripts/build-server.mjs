// Compiles the production server and the admin CLI to JavaScript in dist/ (decisions 013
// and 054): the two server entries and the worker threads they start, each bundled whole,
// and `scripts/admin.ts`, whose command groups (imported on first use) are split into
// chunks, so that a command loads the packages of its own group only; packages are left to
// node_modules and `server-only` compiled away.
// `npm start`, `npm run start:gateway` and `npm run admin` run this first; it builds only
// when a source file the last build read has changed since, so instances started together
// from one folder find the build there, and each file is written under a temporary name and
// renamed, so an instance starting while another builds reads whole files. It reports a
// build on stderr: stdout belongs to the command it runs before (`admin --json`).
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as esbuild from "esbuild";

const ROOT = join(import.meta.dirname, "..");
const OUT_DIR = join(ROOT, "dist");
const MANIFEST = join(OUT_DIR, "inputs.json");
const SERVER_ENTRIES = [
  "server.ts",
  "gateway-server.ts",
  "server/gateway-process.ts",
  "server/portal-thread.ts",
  "server/prepare-database-process.ts",
  "lib/gateway/request-log-worker.ts",
];
const CLI_ENTRY = "scripts/admin.ts";
const CLI_CHUNKS = "scripts/chunks";
/** A chunk no build wrote for this long is no longer imported by a command still starting. */
const STALE_CHUNK_MS = 10 * 60_000;
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
  const options = {
    absWorkingDir: ROOT,
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
  };
  const results = await Promise.all([
    esbuild.build({ ...options, entryPoints: SERVER_ENTRIES }),
    esbuild.build({ ...options, entryPoints: [CLI_ENTRY], splitting: true, chunkNames: `${CLI_CHUNKS}/[name]-[hash]` }),
  ]);
  const written = new Set();
  for (const file of results.flatMap((result) => result.outputFiles)) {
    writeWhole(file.path, file.contents);
    written.add(file.path);
  }
  removeStaleChunks(written);
  const inputs = [...new Set(results.flatMap((result) => Object.keys(result.metafile.inputs)).filter((input) => !input.includes(":"))), ...ALWAYS_READ];
  writeWhole(MANIFEST, JSON.stringify({ inputs, fingerprint: fingerprint(inputs) }));
}

/** Chunks of earlier builds: those not written now and not for a while, which no command is about to import. */
function removeStaleChunks(written) {
  const folder = join(OUT_DIR, CLI_CHUNKS);
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (!written.has(path) && Date.now() - statSync(path).mtimeMs > STALE_CHUNK_MS) rmSync(path, { force: true });
  }
}

if (!isCurrent()) {
  const started = performance.now();
  await build();
  console.error(`Built the server in dist/ (${Math.round(performance.now() - started)} ms).`);
}
