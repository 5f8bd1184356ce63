// Outside Next's bundler (tsx, the admin CLI, tests) `server-only` would throw on
// import; these processes are servers by definition, so it resolves to nothing.
// Every Gatehouse process and worker thread loads this file first, so it also picks
// the better-sqlite3 build that the running Node can use.
import { register } from "node:module";
import "./better-sqlite3-hook.mjs";

register(
  "data:text/javascript," +
    encodeURIComponent(`
      export async function resolve(specifier, context, next) {
        if (specifier === "server-only") return { url: "data:text/javascript,", shortCircuit: true };
        return next(specifier, context);
      }
    `),
);
