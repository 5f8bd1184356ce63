import type { TestServer } from "../tests/support/server";

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { e2eServer?: TestServer }).e2eServer?.stop();
}
