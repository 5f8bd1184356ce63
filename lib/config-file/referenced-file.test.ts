import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCapped, readReferencedFile } from "./referenced-file";

describe("readCapped", () => {
  it("stops one byte past the cap of a file whose size reads 0", async () => {
    expect(await readCapped("/dev/zero", 10)).toBeNull();
  });

  it("gives a file of exactly the cap whole", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "gatehouse-capped-")), "ten.txt");
    writeFileSync(path, "0123456789");
    expect((await readCapped(path, 10))?.toString()).toBe("0123456789");
  });
});

describe("readReferencedFile", () => {
  it("refuses a device inside the root", async () => {
    expect(await readReferencedFile("./zero", "/dev", "/dev")).toEqual({ error: "./zero is not a regular file" });
  });

  it("refuses the root itself", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "gatehouse-root-")));
    expect(await readReferencedFile(".", root, root)).toMatchObject({ error: expect.stringContaining("is outside") });
  });
});
