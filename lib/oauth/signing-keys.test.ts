import { describe, expect, it } from "vitest";
import { decryptPrivateKey, encryptPrivateKey } from "./signing-keys";

const SECRET = "signing-key-test-secret-0123456789abcdef";
const PEM = "-----BEGIN PRIVATE KEY-----\nMIIB...\n-----END PRIVATE KEY-----\n";

describe("private key sealing", () => {
  it("round-trips with the same AUTH_SECRET and never stores the PEM in the clear", () => {
    const sealed = encryptPrivateKey(PEM, SECRET);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("PRIVATE KEY");
    expect(decryptPrivateKey(sealed, SECRET)).toBe(PEM);
    expect(encryptPrivateKey(PEM, SECRET)).not.toBe(sealed);
  });

  it("refuses another AUTH_SECRET and tampered ciphertext", () => {
    const sealed = encryptPrivateKey(PEM, SECRET);
    expect(() => decryptPrivateKey(sealed, `${SECRET}x`)).toThrow();
    const [version, iv, tag, ciphertext] = sealed.split(".");
    const flipped = `${ciphertext!.slice(0, -2)}${ciphertext!.endsWith("AA") ? "BB" : "AA"}`;
    expect(() => decryptPrivateKey([version, iv, tag, flipped].join("."), SECRET)).toThrow();
  });
});
