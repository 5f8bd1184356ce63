import type { z } from "zod";
import { type ConfigFile, configApiSchema, configEnvironmentSchema, configPlanSchema, configTrustSchema } from "./config-file-schema";

type Entry = Record<string, unknown>;
type Path = readonly (string | number)[];

const isObject = (value: unknown): value is Entry => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Deletes the deepest object key on `path` that exists: the faulty value itself, or, for a
 * fault inside a list or a field that is missing, the key holding it. False when only the
 * entry itself could go.
 */
function dropAt(entry: Entry, path: readonly PropertyKey[]): boolean {
  let holder: Entry | undefined;
  let key: string | undefined;
  let value: unknown = entry;
  for (const step of path) {
    if (isObject(value) && typeof step === "string") {
      if (!(step in value)) break;
      [holder, key, value] = [value, step, value[step]];
    } else if (Array.isArray(value) && typeof step === "number" && step < value.length) {
      value = value[step];
    } else {
      break;
    }
  }
  if (!holder || key === undefined) return false;
  delete holder[key];
  return true;
}

/** An entry as its schema takes it once what is at fault is removed, or undefined when nothing of it passes. */
function salvageEntry<T>(schema: z.ZodType<T>, raw: unknown): T | undefined {
  if (!isObject(raw)) return undefined;
  const entry = structuredClone(raw);
  // Each round removes a key at least, so the rounds end.
  for (;;) {
    const parsed = schema.safeParse(entry);
    if (parsed.success) return parsed.data;
    const faults = parsed.error.issues.flatMap((issue) => (issue.code === "unrecognized_keys" ? issue.keys.map((key) => [...issue.path, key]) : [issue.path]));
    if (faults.filter((path) => dropAt(entry, path)).length === 0) return undefined;
  }
}

/** What is left of a file that failed its schema, and where each kept entry stands in the file. */
export type Salvaged = {
  file: ConfigFile;
  /** `apis[0]` of `file` as the path it has in the file */
  pathInFile: (path: Path) => Path;
  /** every environment slug the file names, in entries kept or not */
  namedEnvironments: ReadonlySet<string>;
};

/**
 * A file's entries with what is at fault in each removed, so that the checks after the schema
 * (the files it names, the environments its APIs use) run on the rest in the same pass, and
 * `config apply` lists every error at once.
 */
export function salvage(raw: unknown): Salvaged {
  const sections = isObject(raw) ? raw : {};
  const kept = <T>(name: "environments" | "plans" | "apis" | "trust", schema: z.ZodType<T>) => {
    const list = Array.isArray(sections[name]) ? (sections[name] as unknown[]) : [];
    return list.flatMap((item, index) => {
      const entry = salvageEntry(schema, item);
      return entry === undefined ? [] : [{ index, entry }];
    });
  };
  const parts = {
    environments: kept("environments", configEnvironmentSchema),
    plans: kept("plans", configPlanSchema),
    apis: kept("apis", configApiSchema),
    trust: kept("trust", configTrustSchema),
  };
  const rawEnvironments = Array.isArray(sections.environments) ? (sections.environments as unknown[]) : [];
  return {
    file: {
      environments: parts.environments.map((part) => part.entry),
      plans: parts.plans.map((part) => part.entry),
      apis: parts.apis.map((part) => part.entry),
      trust: parts.trust.map((part) => part.entry),
    },
    pathInFile: (path) => {
      const [section, index] = path;
      const part = typeof section === "string" && section in parts && typeof index === "number" ? parts[section as keyof typeof parts][index] : undefined;
      return part ? [section!, part.index, ...path.slice(2)] : path;
    },
    namedEnvironments: new Set(rawEnvironments.flatMap((entry) => (isObject(entry) && typeof entry.slug === "string" ? [entry.slug] : []))),
  };
}
