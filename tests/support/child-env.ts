/** What every process a test starts inherits from the test runner: the PATH and HOME. */
export function inheritedEnv(): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: process.env.HOME };
}
