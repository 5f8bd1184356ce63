import { readFile } from "node:fs/promises";
import { CommandFailed, noPositionals, UsageError } from "./args";
import { type CommandGroup, command } from "./command";

const list = command({ usage: "api list", summary: "Lists the registered APIs and the environments that serve them." }, async (args) => {
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

export const commands: CommandGroup = { list, validate };
