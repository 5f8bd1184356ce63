// Worker entry for a TypeScript module, named by its file URL as the worker's one
// argument (`new Worker(this file, { argv: [url] })`): Node does not carry the
// parent's module loaders into worker threads, so TypeScript (tsx), the
// server-only stub and the better-sqlite3 choice are registered here first.
import { register } from "tsx/esm/api";
import "./server-only-hook.mjs";

register();
await import(process.argv[2]);
