/**
 * What every process a test starts inherits from the test runner: the PATH and HOME, and
 * NODE_OPTIONS when set (the Node 24 run preloads its SQLite addon through it).
 */
export function inheritedEnv(): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...(process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {}) };
}
