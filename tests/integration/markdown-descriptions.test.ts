import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { startServer, type TestServer } from "../support/server";
import { openDb } from "./gateway-support";

let server: TestServer;
let db: Db;

const DESCRIPTION = [
  "Read the **guide** first:",
  "",
  "- [Getting started](https://example.com/start)",
  "- [Elsewhere](//evil.example/phish)",
  "- [Scopes](#scopes) and `notifications:read`",
  "- [a trap](javascript:alert(1)) <script>alert(2)</script> <img src=x onerror=alert(3)>",
].join("\n");

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
  await db.api.update({
    where: { slug: "notifications" },
    data: {
      description: DESCRIPTION,
      changelog: [{ version: "1.0.0", date: "2022-12-05", notes: "Adds `ETag` support; see [the guide](/apis/notifications?tab=reference)." }],
    },
  });
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

describe("Markdown descriptions and changelogs", () => {
  it("render lists, emphasis, code and safe links, external ones (protocol-relative too) with rel=noopener noreferrer nofollow, and never raw HTML or script links", async () => {
    const html = await (await fetch(`${server.url}/apis/notifications`)).text();
    expect(html).toContain("<strong>guide</strong>");
    expect(html).toMatch(/<a href="https:\/\/example.com\/start"[^>]*rel="noopener noreferrer nofollow"[^>]*>Getting started<\/a>/);
    expect(html).toMatch(/<a href="\/\/evil.example\/phish"[^>]*rel="noopener noreferrer nofollow"[^>]*>Elsewhere<\/a>/);
    expect(html).toMatch(/<a href="#scopes"[^>]*>Scopes<\/a>/);
    expect(html).toMatch(/<code[^>]*>notifications:read<\/code>/);
    expect(html).toMatch(/<code[^>]*>ETag<\/code>/);
    expect(html).toMatch(/<a href="\/apis\/notifications\?tab=reference"[^>]*>the guide<\/a>/);
    expect(html).not.toContain("javascript:alert");
    expect(html).not.toContain("<script>alert(2)");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
  });
});
