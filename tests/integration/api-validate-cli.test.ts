import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notificationsDocument } from "../../lib/notifications/openapi";
import { runAdmin } from "../support/admin-cli";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "gatehouse-api-validate-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The command reads the file only; no database is opened. */
function validate(...args: string[]) {
  return runAdmin("file:./unused.db", "api", "validate", ...args);
}

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe("admin api validate", () => {
  it("accepts a valid document, such as the one Gatehouse publishes for the Notifications API", async () => {
    const path = await file("notifications.json", JSON.stringify(notificationsDocument({ gatewayUrl: "https://gw.example/gw/sso-qa" })));
    const result = await validate(path, "--json");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ database: expect.any(String), file: path, valid: true, version: "3.1.0" });
  });

  it("exits 1 listing each error with its JSON pointer", async () => {
    const path = await file(
      "broken.yaml",
      "openapi: 3.0.3\ninfo: {title: Broken}\npaths:\n  /orders:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/Missing'}\n",
    );
    const json = await validate(path, "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      database: expect.any(String),
      file: path,
      valid: false,
      errors: [
        { pointer: "/info", message: "must have required property 'version'" },
        { pointer: "/paths/~1orders/get/responses/200/$ref", message: 'points nowhere ("#/components/responses/Missing")' },
      ],
    });
    const human = await validate(path);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain("/paths/~1orders/get/responses/200/$ref: points nowhere");
  });

  it("exits 2 with a reason for a missing file or argument", async () => {
    expect(await validate(join(dir, "absent.yaml"))).toMatchObject({ code: 2, stderr: expect.stringContaining("cannot read") });
    expect(await validate()).toMatchObject({ code: 2, stderr: expect.stringContaining("usage: admin api validate <file>") });
  });
});
