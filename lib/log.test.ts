import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./log";

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, logger: createLogger({ level: "info", destination }) };
}

describe("log redaction", () => {
  it("censors credentials wherever a request puts them", () => {
    const secret = "gsk_secret-value-that-must-not-appear";
    const { lines, logger } = capture();
    logger.info({
      authorization: `Basic ${secret}`,
      cookie: secret,
      password: secret,
      client_secret: secret,
      access_token: secret,
      req: { headers: { authorization: `Bearer ${secret}`, cookie: secret } },
      body: { client_secret: secret, password: secret, access_token: secret, clientSecret: secret },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(secret);
    expect(lines[0]).toContain("[redacted]");
  });
});
