// Worker entry: Node does not carry the parent's module loaders into worker
// threads, so TypeScript (tsx) and the server-only stub are registered here.
import { register } from "tsx/esm/api";
import "../scripts/server-only-hook.mjs";

register();
await import("./portal-thread.ts");
