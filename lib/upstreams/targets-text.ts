/** How the console's form writes an upstream's targets: one `URL [weight]` per line, the weight left out when it is 1. */
export function targetsText(targets: readonly { url: string; weight: number }[]): string {
  return targets.map((target) => (target.weight === 1 ? target.url : `${target.url} ${target.weight}`)).join("\n");
}

/** The form's lines back into targets; a weight that is not a number goes to the server as it is, to be named there. */
export function parseTargetsText(text: string): { url: string; weight: number | string }[] {
  return text
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([url]) => url)
    .map(([url, weight]) => ({ url: url!, weight: weight === undefined ? 1 : Number.isNaN(Number(weight)) ? weight : Number(weight) }));
}
