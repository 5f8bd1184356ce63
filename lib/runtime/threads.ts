import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { projectRoot } from "./project-root";
import { inServerBuild } from "./server-build";

/**
 * Starts a worker thread on one of Gatehouse's modules, named by its source path
 * from the project root: in the server build, its compiled file in dist/, which the
 * process's `--import` preloads reach as they reach every thread; from source, the
 * TypeScript through `typescript-worker.mjs`. Next's bundler, which reaches this
 * module from the gateway's route under `next dev`, is told to leave the paths alone.
 */
export function startThread(source: string, options: WorkerOptions = {}): Worker {
  const root = projectRoot();
  if (inServerBuild) return new Worker(/*turbopackIgnore: true*/ join(/*turbopackIgnore: true*/ root, "dist", source.replace(/\.ts$/, ".js")), options);
  const entry = join(/*turbopackIgnore: true*/ root, "lib", "runtime", "typescript-worker.mjs");
  return new Worker(/*turbopackIgnore: true*/ entry, { ...options, argv: [pathToFileURL(join(/*turbopackIgnore: true*/ root, source)).href] });
}
