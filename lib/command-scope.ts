import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What one admin command run inside another process (`runAdmin` in `lib/admin-cli/run.ts`)
 * keeps apart from that process and from every other command: its environment, and the
 * configuration, database client and change publisher made from it, each in a slot of its own
 * that the module owning it names. Outside a command, those modules keep the process's own.
 */
export class CommandScope {
  readonly #slots = new Map<symbol, unknown>();

  constructor(readonly env: Readonly<Record<string, string | undefined>>) {}

  /** What `key` holds in this command, made by `make` on first use. */
  slot<T>(key: symbol, make: () => T): T {
    if (!this.#slots.has(key)) this.#slots.set(key, make());
    return this.#slots.get(key) as T;
  }

  /** What `key` holds in this command, if it was made, leaving the slot empty. */
  take<T>(key: symbol): T | undefined {
    const value = this.#slots.get(key) as T | undefined;
    this.#slots.delete(key);
    return value;
  }
}

const scopes = new AsyncLocalStorage<CommandScope>();

/** The command being run in this asynchronous context, or undefined: the process's own work. */
export function commandScope(): CommandScope | undefined {
  return scopes.getStore();
}

/** Runs `work` as one command of its own: what it reaches through `commandScope()` is `scope`'s. */
export function inCommandScope<T>(scope: CommandScope, work: () => Promise<T>): Promise<T> {
  return scopes.run(scope, work);
}
