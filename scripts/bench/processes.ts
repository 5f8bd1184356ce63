// Starting, watching and stopping the servers under test.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export type Server = { name: string; origin: string; child: ChildProcess; stop(): Promise<void> };

/** Spawns `node <args>` with `env` and waits until `healthPath` answers 200. */
export function startServer(name: string, port: number, args: readonly string[], env: Record<string, string>, healthPath = "/"): Promise<Server> {
  return startProgram(name, port, process.execPath, args, env, (origin) => fetch(`${origin}${healthPath}`).then((response) => response.ok));
}

/** For a server that answers every path without a token with 401: any answer means it is up. */
export function answersAtAll(origin: string): Promise<boolean> {
  return fetch(origin).then(() => true);
}

/** Spawns `command <args>` with `env` (and PORT) and waits until `answers(origin)` holds. */
export async function startProgram(
  name: string,
  port: number,
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  answers: (origin: string) => Promise<boolean>,
): Promise<Server> {
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: { NODE_ENV: "production", PATH: process.env.PATH, HOME: process.env.HOME, NEXT_TELEMETRY_DISABLED: "1", ...env, PORT: String(port) },
    stdio: ["ignore", process.env.BENCH_VERBOSE ? "inherit" : "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${name} did not come up`);
    if (await answers(origin).catch(() => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    name,
    origin,
    child,
    async stop() {
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after the command's closing parenthesis (state, ppid, ...). */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** The process and its child processes: a cluster's primary and its workers (Linux). */
function withChildren(pid: number): number[] {
  const children = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return Number(statFields(Number(name))[1]) === pid;
      } catch {
        return false;
      }
    });
  return [pid, ...children.map(Number)];
}

function sumOver(pids: readonly number[], read: (pid: number) => number): number {
  return pids.reduce((sum, pid) => {
    try {
      return sum + read(pid);
    } catch {
      // A process that ended between the listing and the reading holds nothing.
      return sum;
    }
  }, 0);
}

/** CPU seconds (user + system) the process and its children have used, from /proc (Linux). */
export function cpuSeconds(pid: number): number {
  return sumOver(withChildren(pid), (each) => {
    const fields = statFields(each);
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  });
}

/**
 * CPU seconds every process on the machine has used, from /proc/stat (Linux): user, nice, system,
 * irq and softirq time over all cores; idle, iowait and the time the hypervisor gave to others
 * (steal) are not the machine's work. Not `os.cpus()`: its times leave out softirq, where the
 * kernel counts much of loopback traffic's receiving.
 */
export function machineCpuSeconds(): number {
  const [user, nice, system, , , irq, softirq] = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (user! + nice! + system! + irq! + softirq!) / TICKS_PER_SECOND;
}

/** Resident set size in MB of the process and its children together, from /proc (Linux). */
export function rssMegabytes(pid: number): number {
  return sumOver(withChildren(pid), (each) => {
    const line = readFileSync(`/proc/${each}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
    return line ? Number(line[1]) / 1024 : 0;
  });
}
