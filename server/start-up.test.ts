import { once } from "node:events";
import { connect, createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { cliPublicUrl, reservePort, startupBanner } from "./start-up";

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

describe("where the admin CLI looks for the public URL", () => {
  const env = { AUTH_SECRET: "a-secret-of-32-characters-or-more-for-tests", PORT: "3100" };

  it("says to set PORT and PUBLIC_URL in .env when PORT is given only on the command line", () => {
    const cli = cliPublicUrl(env, {});
    expect(cli).toBe("http://localhost:3000");
    const banner = startupBanner({ ...SETTINGS, port: 3100, publicUrl: "http://localhost:3100", cliPublicUrl: cli }, "portal and gateway");
    expect(banner).toContain(
      "admin CLI           reads PORT and PUBLIC_URL from .env, so its links name http://localhost:3000: set them in .env to name http://localhost:3100",
    );
  });

  it("says nothing when .env gives the CLI the same public URL", () => {
    for (const envFile of [{ PORT: "3100" }, { PUBLIC_URL: "http://localhost:3100/" }] as Record<string, string>[]) {
      const cli = cliPublicUrl(env, envFile);
      expect(cli).toBe("http://localhost:3100");
      expect(startupBanner({ ...SETTINGS, port: 3100, publicUrl: "http://localhost:3100", cliPublicUrl: cli }, "portal and gateway")).not.toContain(
        "admin CLI",
      );
    }
  });
});

describe("the port held through start-up", () => {
  it("is handed over while a health check is connected to it, the check being closed", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));

    const reserved = await reservePort(port);
    const check = connect(port, "127.0.0.1");
    const closed = once(check, "close");
    await once(check, "connect");
    await reserved.release();
    await closed;
  });
});
