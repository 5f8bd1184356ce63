import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadEnvFile } from "./env-file";

const dirs: string[] = [];

afterEach(() => {
  for (const name of ["GATEHOUSE_ENV_FILE_A", "GATEHOUSE_ENV_FILE_B"]) delete process.env[name];
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function envFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-env-"));
  dirs.push(dir);
  writeFileSync(join(dir, ".env"), text);
  return join(dir, ".env");
}

describe(".env loading", () => {
  it("adds the file's variables and keeps those the process environment has", () => {
    process.env.GATEHOUSE_ENV_FILE_A = "from the environment";
    loadEnvFile(envFile("GATEHOUSE_ENV_FILE_A=from the file\nGATEHOUSE_ENV_FILE_B=postgresql://root@127.0.0.1:5432/x\n"));
    expect(process.env.GATEHOUSE_ENV_FILE_A).toBe("from the environment");
    expect(process.env.GATEHOUSE_ENV_FILE_B).toBe("postgresql://root@127.0.0.1:5432/x");
  });

  it("is no error when there is no .env", () => {
    expect(() => loadEnvFile(join(tmpdir(), "no-such-dir-for-gatehouse", ".env"))).not.toThrow();
  });
});
