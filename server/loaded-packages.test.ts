import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";

/**
 * The packages a compiled entry loads as it starts, bundled as `scripts/build-server.mjs`
 * bundles it; those it imports on first use (`import()`) are left out.
 */
async function packagesLoadedAtStart(entry: string): Promise<string[]> {
  const { metafile } = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "node",
    packages: "external",
    outdir: "unwritten",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const [output] = Object.values(metafile.outputs);
  return output!.imports.filter((imported) => imported.external && imported.kind === "import-statement").map((imported) => imported.path);
}

// Each package is held in every thread that loads it: zod about 3 MB of V8 heap, pg about
// 3 MB, within the gateway-only process's 150 MB (docs/decisions/036-what-each-thread-loads.md).
describe("what the gateway's threads load as they start", () => {
  it("the request log's worker loads neither the configuration's zod nor pg", async () => {
    const packages = await packagesLoadedAtStart("lib/gateway/request-log-worker.ts");
    expect(packages).toContain("better-sqlite3");
    expect(packages).not.toContain("zod");
    expect(packages).not.toContain("pg");
  });

  it("the gateway-only process loads pg only once it opens a PostgreSQL database", async () => {
    const packages = await packagesLoadedAtStart("server/gateway-process.ts");
    expect(packages).toContain("undici");
    expect(packages).not.toContain("pg");
  });

  it("the full server's and the gateway-only process's gateway load the MCP SDK on their first MCP request", async () => {
    for (const entry of ["server.ts", "server/gateway-process.ts"]) {
      const packages = await packagesLoadedAtStart(entry);
      expect(packages, entry).toContain("jose");
      const sdk = packages.filter((name) => name.startsWith("@modelcontextprotocol/"));
      expect(sdk, entry).toEqual([]);
    }
  });

  it("the gateway-only entry, a cluster's primary, loads none of the gateway's serving packages", async () => {
    const packages = await packagesLoadedAtStart("gateway-server.ts");
    expect(packages).toContain("prom-client");
    expect(packages).not.toContain("undici");
    expect(packages).not.toContain("ws");
    expect(packages).not.toContain("ajv");
    // Its start-up process checks Redis (server/prepare-database-process.ts).
    expect(packages).not.toContain("ioredis");
  });
});
