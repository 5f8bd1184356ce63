// Which better-sqlite3 a process loads (decision 011). Version 12, the `better-sqlite3`
// that Gatehouse and @prisma/adapter-better-sqlite3 import, wraps its objects in
// node::ObjectWrap, which on Node 24 aborts the process when the garbage collector frees
// a statement while no Environment is current. Version 13, installed as
// `better-sqlite3-node-api`, is built on Node-API 10 and does not, but Node 20 has only
// Node-API 9 and crashes loading it. So where Node has Node-API 10 and in-thread module
// hooks (22.15+, 24), every resolution that lands on version 12's entry file is sent to
// version 13's, in this thread: import and require, bare name or path, Next's externals
// included.
import module, { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

if (Number(process.versions.napi) >= 10 && module.registerHooks) {
  const require = createRequire(import.meta.url);
  const legacy = pathToFileURL(require.resolve("better-sqlite3")).href;
  const nodeApi = pathToFileURL(require.resolve("better-sqlite3-node-api")).href;
  module.registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      return resolved.url === legacy ? { ...resolved, url: nodeApi } : resolved;
    },
  });
}
