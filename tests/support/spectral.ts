import fs from "node:fs";
import path from "node:path";
import { Document, type ISpectralDiagnostic, Spectral } from "@stoplight/spectral-core";
import * as Parsers from "@stoplight/spectral-parsers";
import { commonjs } from "@stoplight/spectral-ruleset-bundler/plugins/commonjs";
import { bundleAndLoadRuleset } from "@stoplight/spectral-ruleset-bundler/with-loader";

/** `.spectral.yaml` at the repository root is the one statement of the rules and their exceptions. */
export const RULESET_FILE = path.resolve(__dirname, "../../.spectral.yaml");

function offline(): never {
  throw new Error("The Spectral ruleset must load without the network.");
}

/** A Spectral linter with the repository's ruleset, loaded from disk only. */
export async function repositorySpectral(): Promise<Spectral> {
  const spectral = new Spectral();
  spectral.setRuleset(await bundleAndLoadRuleset(RULESET_FILE, { fs, fetch: offline }, [commonjs()]));
  return spectral;
}

const jsonParser = ("Json" in Parsers ? Parsers : (Parsers as unknown as { default: typeof Parsers }).default).Json;

/** Lints one OpenAPI document as the JSON the portal serves. */
export function lintDocument(spectral: Spectral, document: unknown, source: string): Promise<ISpectralDiagnostic[]> {
  return spectral.run(new Document(JSON.stringify(document, null, 2), jsonParser, source));
}
