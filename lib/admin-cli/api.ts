import { readFile } from "node:fs/promises";
import { CommandFailed, dateFlag, noPositionals, requiredFlag, UsageError } from "./args";
import { type CommandGroup, command } from "./command";
import { asUsageError } from "./problem-usage";

const list = command({ usage: "api list", summary: "Lists the registered APIs, the environments that serve them and their versions." }, async (args) => {
  noPositionals(args);
  const [{ db }, { apiSummaries }] = await Promise.all([import("../db"), import("../api-registry/api-registry")]);
  return { apis: await apiSummaries({ db: db() }) };
});

/** The check the portal applies on save; exits 1 listing `{pointer, message}` for an invalid document. */
const validate = command({ usage: "api validate <file>", summary: "Validates an OpenAPI 3.0 or 3.1 document as the portal does on save." }, async (args) => {
  const [file, ...rest] = args.positionals;
  if (!file || rest.length > 0) throw new UsageError("usage: admin api validate <file>");
  const text = await readFile(file, "utf8").catch(() => {
    throw new UsageError(`cannot read ${file}`);
  });
  const { checkOpenApiDocument, describeOpenApiErrors } = await import("../api-registry/openapi-check");
  const result = await checkOpenApiDocument(text);
  if (result.ok) return { file, valid: true, version: result.version };
  throw new CommandFailed(
    args.json ? { file, valid: false, errors: result.errors } : `${file} is not a valid OpenAPI document:\n${describeOpenApiErrors(result.errors)}`,
  );
});

const LIFECYCLE_FLAGS = { version: "--version", operation: "--operation", sunset: "--sunset", api: "--api" };

/** `api version add`: the CLI's group and action are `api version`, and `add` is its one verb. */
const version = command(
  {
    usage: "api version add --api <slug> --version <v> --openapi <file> [--status beta|current]",
    summary: "Adds a version of a proxied API, served at /gw/{env}/{api}/{v}/...; a current one deprecates the version that was current.",
  },
  async (args) => {
    const [verb, ...rest] = args.positionals;
    if (verb !== "add" || rest.length > 0)
      throw new UsageError("usage: admin api version add --api <slug> --version <v> --openapi <file> [--status beta|current]");
    const [slug, name, file] = [requiredFlag(args, "api"), requiredFlag(args, "version"), requiredFlag(args, "openapi")];
    const status = args.flags.get("status") ?? "current";
    if (status !== "beta" && status !== "current") throw new UsageError("--status must be beta or current");
    const text = await readFile(file, "utf8").catch(() => {
      throw new UsageError(`--openapi: cannot read ${file}`);
    });
    const [{ db }, { CLI_ACTOR }, { checkOpenApiDocument, describeOpenApiErrors }, { addVersion }] = await Promise.all([
      import("../db"),
      import("../audit/write-audit"),
      import("../api-registry/openapi-check"),
      import("../api-lifecycle/versions"),
    ]);
    const checked = await checkOpenApiDocument(text);
    if (!checked.ok) throw new UsageError(`--openapi: ${file} is not a valid OpenAPI document:\n${describeOpenApiErrors(checked.errors)}`);
    return asUsageError(
      () => addVersion({ db: db(), actor: CLI_ACTOR, slug, spec: { version: name, status, openapiDocument: checked.json } }),
      LIFECYCLE_FLAGS,
    );
  },
);

const deprecate = command(
  {
    usage: 'api deprecate --api <slug> --version <v> [--operation "GET /v1/path"] [--date <date>] [--sunset <date>]',
    summary: "Marks a version, or one operation of it, deprecated (from --date, default now), with an optional sunset after which calls answer 410.",
  },
  async (args) => {
    noPositionals(args);
    const [slug, name] = [requiredFlag(args, "api"), requiredFlag(args, "version")];
    const [deprecatedAt, sunsetAt] = [dateFlag(args, "date"), dateFlag(args, "sunset")];
    const [{ db }, { CLI_ACTOR }, lifecycle] = await Promise.all([import("../db"), import("../audit/write-audit"), import("../api-lifecycle/versions")]);
    const done = await asUsageError(
      () => lifecycle.deprecate({ db: db(), actor: CLI_ACTOR, slug, version: name, operation: args.flags.get("operation"), deprecatedAt, sunsetAt }),
      LIFECYCLE_FLAGS,
    );
    return { ...done, deprecatedAt: done.deprecatedAt.toISOString(), sunsetAt: done.sunsetAt?.toISOString() ?? null };
  },
);

const retire = command(
  { usage: "api retire --api <slug> --version <v>", summary: "Retires a version: the gateway answers its calls 410 api-version-retired." },
  async (args) => {
    noPositionals(args);
    const [slug, name] = [requiredFlag(args, "api"), requiredFlag(args, "version")];
    const [{ db }, { CLI_ACTOR }, { retire: retireVersion }] = await Promise.all([
      import("../db"),
      import("../audit/write-audit"),
      import("../api-lifecycle/versions"),
    ]);
    return asUsageError(() => retireVersion({ db: db(), actor: CLI_ACTOR, slug, version: name }), LIFECYCLE_FLAGS);
  },
);

export const commands: CommandGroup = { list, validate, version, deprecate, retire };
