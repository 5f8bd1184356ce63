// Preloaded (--require) by scripts/test-node24.sh only. The better-sqlite3 addon in
// node_modules is built for the machine's Node, whose ABI Node 24 cannot load; this
// hands better-sqlite3 the copy that script built for Node 24 instead.
const Module = require("node:module");
const { join } = require("node:path");

const addon = join(__dirname, "..", "node_modules", ".cache", "gatehouse-node24", "better-sqlite3", "build", "Release", "better_sqlite3.node");
const load = Module._load;

Module._load = function loadWithNode24Sqlite(request, parent, isMain) {
  if (request === "bindings" && parent && /[\\/]better-sqlite3[\\/]lib[\\/]/.test(parent.filename)) return () => load.call(this, addon, parent, isMain);
  return load.call(this, request, parent, isMain);
};
