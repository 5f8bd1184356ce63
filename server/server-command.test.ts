import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ADMIN_NODE_ARGS, DEV_NODE_ARGS, GATEWAY_ENV, GATEWAY_NODE_ARGS, SERVER_ENV, SERVER_NODE_ARGS, withPrismaV8Args } from "./server-command";

const assignments = (env: Record<string, string>) => Object.entries(env).map(([name, value]) => `${name}=${value}`);

describe("the server command", () => {
  it("is the one npm start runs", () => {
    const { scripts } = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(scripts.start).toBe(`NODE_ENV=production ${assignments(SERVER_ENV).join(" ")} node ${SERVER_NODE_ARGS.join(" ")}`);
    expect(scripts.prestart).toBe("npm run --silent build:server");
  });

  it("is the one npm run start:gateway runs, with the gateway-only entry", () => {
    const { scripts } = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(scripts["start:gateway"]).toBe(`NODE_ENV=production ${assignments(GATEWAY_ENV).join(" ")} node ${GATEWAY_NODE_ARGS.join(" ")}`);
    expect(scripts["prestart:gateway"]).toBe("npm run --silent build:server");
  });

  it("is the one npm run dev runs, next dev", () => {
    const { scripts } = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(scripts.dev).toBe(`node ${DEV_NODE_ARGS.join(" ")}`);
  });

  it("is the one npm run admin runs, the compiled CLI, built first", () => {
    const { scripts } = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(scripts.admin).toBe(`node ${ADMIN_NODE_ARGS.join(" ")}`);
    expect(scripts.preadmin).toBe("npm run --silent build:server");
  });

  it("runs the gateway-only process without --liftoff-only, and forks its Prisma start-up process with it", () => {
    expect(GATEWAY_NODE_ARGS).not.toContain("--liftoff-only");
    expect(SERVER_NODE_ARGS).toContain("--liftoff-only");
    expect(ADMIN_NODE_ARGS).toContain("--liftoff-only");
    const gatewayFlags = GATEWAY_NODE_ARGS.slice(0, -1);
    expect(withPrismaV8Args(gatewayFlags)).toEqual([...gatewayFlags, "--liftoff-only"]);
    const serverFlags = SERVER_NODE_ARGS.slice(0, -1);
    expect(withPrismaV8Args(serverFlags)).toEqual(serverFlags);
  });
});
