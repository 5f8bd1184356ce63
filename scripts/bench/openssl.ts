// `openssl speed rsa2048` from the same run: how many RS256 signatures one core
// makes here, the ceiling of a token endpoint that signs every token.
import { execFileSync } from "node:child_process";

export function opensslSignsPerSecond(seconds: number): number | undefined {
  try {
    const output = execFileSync("openssl", ["speed", "-seconds", String(seconds), "rsa2048"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const lines = output.split("\n");
    const header = lines
      .find((line) => line.includes("sign/s"))
      ?.trim()
      .split(/\s+/);
    const row = lines
      .find((line) => line.startsWith("rsa 2048 bits"))
      ?.replace("rsa 2048 bits", "")
      .trim()
      .split(/\s+/);
    if (!header || !row) return undefined;
    // The header names the columns after "rsa 2048 bits"; the row's values line up with it.
    return Number(row[header.indexOf("sign/s")]);
  } catch {
    return undefined;
  }
}
