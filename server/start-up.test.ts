import { describe, expect, it } from "vitest";
import { startupBanner } from "./start-up";

const SETTINGS = { databaseUrl: "file:./data/gatehouse.db", redisUrl: undefined };

describe("startupBanner", () => {
  it("names the process's own port, and the public URL only where it is another address", () => {
    const alone = startupBanner({ ...SETTINGS, port: 3000, publicUrl: "http://localhost:3000" }, "portal and gateway");
    expect(alone).toContain("portal and gateway  http://localhost:3000  (port 3000)");
    expect(alone).not.toContain("public URL");

    const scaledOut = startupBanner({ ...SETTINGS, port: 3911, publicUrl: "http://localhost:3910" }, "gateway only");
    expect(scaledOut).toContain("gateway only        http://localhost:3911  (port 3911)");
    expect(scaledOut).toContain("public URL          http://localhost:3910");
  });
});
