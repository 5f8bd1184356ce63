import { readFile } from "node:fs/promises";
import type { CommandGroup } from "../admin";
import { allowOnly, CommandFailed, type ParsedArgs, UsageError } from "./args";

/** `api validate <file>`: the check the portal applies on save; exits 1 listing `{pointer, message}` for an invalid document. */
async function validate(args: ParsedArgs) {
  allowOnly(args, []);
  const [file, ...rest] = args.positionals;
  if (!file || rest.length > 0) throw new UsageError("usage: admin api validate <file>");
  const text = await readFile(file, "utf8").catch(() => {
    throw new UsageError(`cannot read ${file}`);
  });
  const { checkOpenApiDocument, describeOpenApiErrors } = await import("../../lib/portal/openapi-check");
  const result = await checkOpenApiDocument(text);
  if (result.ok) return { file, valid: true, version: result.version };
  throw new CommandFailed(args.json ? { file, valid: false, errors: result.errors } : `${file} is not a valid OpenAPI document:\n${describeOpenApiErrors(result.errors)}`);
}

export const commands: CommandGroup = { validate };
