// Outside Next's bundler (tsx, the admin CLI, tests) `server-only` would throw on
// import; these processes are servers by definition, so it resolves to nothing.
import { register } from "node:module";

register(
  "data:text/javascript," +
    encodeURIComponent(`
      export async function resolve(specifier, context, next) {
        if (specifier === "server-only") return { url: "data:text/javascript,", shortCircuit: true };
        return next(specifier, context);
      }
    `),
);
