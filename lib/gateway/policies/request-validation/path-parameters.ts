/** A path template's parameter names, in order, and the pattern that reads their raw values from a path. */
export type PathParameterReader = (path: string) => Map<string, string> | undefined;

const PARAMETER = /\{([^{}/]*)\}/g;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Reads the raw (still percent-encoded) value of each `{name}` in `template` from a
 * path that `createPathTemplates` matched to it: a parameter spans part of one segment.
 */
export function pathParameterReader(template: string): PathParameterReader {
  const names: string[] = [];
  let source = "^";
  let last = 0;
  for (const match of template.matchAll(PARAMETER)) {
    source += `${escaped(template.slice(last, match.index))}([^/]+?)`;
    names.push(match[1]!);
    last = match.index + match[0].length;
  }
  const pattern = new RegExp(`${source}${escaped(template.slice(last))}$`);
  return (path) => {
    const found = pattern.exec(path);
    if (!found) return undefined;
    return new Map(names.map((name, index) => [name, found[index + 1]!]));
  };
}
