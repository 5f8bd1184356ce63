/**
 * Tells what the gateway keeps from the database that it changed (a notification from PostgreSQL,
 * Redis or SQLite's watch, docs/scaling-out.md): each copy subscribes and reads again at once.
 */
export type ChangeSignal = {
  subscribe(listener: () => void): void;
  notify(): void;
};

export function createChangeSignal(): ChangeSignal {
  const listeners: (() => void)[] = [];
  return {
    subscribe: (listener) => void listeners.push(listener),
    notify: () => {
      for (const listener of listeners) listener();
    },
  };
}

const globalForChanges = globalThis as unknown as { gatehouseChanges?: ChangeSignal };

/** The process's signal, which the copies kept once per process (signing keys) share with the gateway's. */
export function processChanges(): ChangeSignal {
  globalForChanges.gatehouseChanges ??= createChangeSignal();
  return globalForChanges.gatehouseChanges;
}
