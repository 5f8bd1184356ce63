// No cycle between lib/'s folders, type-only imports included: run by `npm run lint:deps`, part of
// `npm test`, after dependency-cruiser's module rules. dependency-cruiser's own folder-scoped rules
// count every module of a folder, its tests too, and a test may import any layer to set up what it
// tests; so this check cruises lib/ with the same configuration, drops the test files, collapses
// each module to its folder and reports every group of folders that import each other.
import { cruise } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

const TEST_FILE = /\.(test|spec)\.tsx?$/;

/** `lib/<folder>` for a module in one of lib's folders; lib's own files are no folder. */
function folderOf(path) {
  return /^lib\/[^/]+(?=\/)/.exec(path)?.[0] ?? null;
}

/** folder → imported folder → the first import seen between them, as "from → to". */
async function folderImports() {
  const { ruleSet: _rules, validate: _validate, ...options } = await extractDepcruiseOptions("./.dependency-cruiser.cjs");
  const { output } = await cruise(["lib"], { ...options, outputType: "json" }, {}, { tsConfig: extractTSConfig("./tsconfig.json") });
  const edges = new Map();
  for (const module of JSON.parse(output).modules) {
    const from = folderOf(module.source);
    if (!from || TEST_FILE.test(module.source)) continue;
    const imported = edges.get(from) ?? new Map();
    edges.set(from, imported);
    for (const { resolved } of module.dependencies) {
      const to = folderOf(resolved);
      if (to && to !== from && !imported.has(to)) imported.set(to, `${module.source} → ${resolved}`);
    }
  }
  return edges;
}

/** Tarjan's strongly connected components with more than one folder: each is a set of folders in a cycle. */
function cycles(edges) {
  const order = new Map();
  const lowest = new Map();
  const stack = [];
  const found = [];
  const visit = (folder) => {
    order.set(folder, order.size);
    lowest.set(folder, order.get(folder));
    stack.push(folder);
    for (const next of edges.get(folder)?.keys() ?? []) {
      if (!order.has(next)) {
        visit(next);
        lowest.set(folder, Math.min(lowest.get(folder), lowest.get(next)));
      } else if (stack.includes(next)) {
        lowest.set(folder, Math.min(lowest.get(folder), order.get(next)));
      }
    }
    if (lowest.get(folder) !== order.get(folder)) return;
    const component = stack.splice(stack.indexOf(folder));
    if (component.length > 1) found.push(component.sort());
  };
  for (const folder of edges.keys()) if (!order.has(folder)) visit(folder);
  return found;
}

const edges = await folderImports();
const found = cycles(edges);
for (const component of found) {
  console.error(`error no-folder-cycle: ${component.join(", ")} import each other:`);
  for (const from of component) {
    for (const [to, example] of edges.get(from) ?? []) {
      if (component.includes(to)) console.error(`  ${from} → ${to}: ${example}`);
    }
  }
}
if (found.length > 0) {
  console.error(
    "\nA folder of lib/ imports a folder that imports it back, directly or through others. Pass what is needed in as an argument, or move the shared declaration down into a folder both import; see the layer table in ARCHITECTURE.md.",
  );
  process.exit(1);
}
