import { join } from "node:path";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { projectRoot } from "./project-root";

/**
 * Starts a worker thread of the compiled server on one of Gatehouse's modules, named by
 * its source path from the project root: the thread runs its compiled file in dist/,
 * and the process's `--import` preloads reach it as they reach every thread. Next's
 * bundler, which reaches this module from the gateway's route under `next dev`, is told
 * to leave the path alone.
 */
export function startThread(source: string, options: WorkerOptions = {}): Worker {
  return new Worker(/*turbopackIgnore: true*/ compiledModule(source), options);
}

/** The compiled file in dist/ of one of Gatehouse's modules, named by its source path from the project root. */
export function compiledModule(source: string): string {
  return join(/*turbopackIgnore: true*/ projectRoot(), "dist", source.replace(/\.ts$/, ".js"));
}
