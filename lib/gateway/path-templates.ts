/** Finds the template a path matches, or undefined when none does. */
export type PathTemplates = (path: string) => string | undefined;

type Node = {
  /** the template that ends at this node */
  template?: string;
  literals?: Map<string, Node>;
  /** segments with a parameter and fixed text, such as `{id}.json`, in declaration order */
  mixed?: { pattern: RegExp; node: Node }[];
  /** a segment that is a parameter alone, such as `{id}` */
  parameter?: Node;
};

const PARAMETER = /\{[^{}/]*\}/g;
const WHOLE_PARAMETER = /^\{[^{}/]*\}$/;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function mixedPattern(segment: string): RegExp {
  const parts = segment.split(PARAMETER).map(escaped);
  return new RegExp(`^${parts.join(".+?")}$`);
}

function add(root: Node, template: string): void {
  let node = root;
  for (const segment of template.split("/")) {
    if (WHOLE_PARAMETER.test(segment)) {
      node = node.parameter ??= {};
    } else if (segment.includes("{")) {
      const pattern = mixedPattern(segment);
      let entry = node.mixed?.find((mixed) => mixed.pattern.source === pattern.source);
      if (!entry) (node.mixed ??= []).push((entry = { pattern, node: {} }));
      node = entry.node;
    } else {
      node.literals ??= new Map();
      let next = node.literals.get(segment);
      if (!next) node.literals.set(segment, (next = {}));
      node = next;
    }
  }
  // Templates that differ only in their parameters' names are one path (OpenAPI 3.1 §4.8.8): the first stays.
  node.template ??= template;
}

/** OpenAPI's precedence: a fixed segment before one with a parameter, which matches one non-empty segment. */
function find(node: Node, segments: readonly string[], index: number): string | undefined {
  if (index === segments.length) return node.template;
  const segment = segments[index]!;
  const literal = node.literals?.get(segment);
  const viaLiteral = literal && find(literal, segments, index + 1);
  if (viaLiteral) return viaLiteral;
  if (segment === "") return undefined;
  for (const mixed of node.mixed ?? []) {
    const viaMixed = mixed.pattern.test(segment) ? find(mixed.node, segments, index + 1) : undefined;
    if (viaMixed) return viaMixed;
  }
  return node.parameter && find(node.parameter, segments, index + 1);
}

/**
 * A table of path templates (`/v1/orders/{id}`), matched a segment at a time: the
 * cost of a match grows with the path's segments, not with the number of templates.
 * Paths are compared as sent, percent-encoding and all; an empty path is `/`.
 */
export function createPathTemplates(templates: Iterable<string>): PathTemplates {
  const root: Node = {};
  for (const template of templates) add(root, template);
  return (path) => find(root, (path === "" ? "/" : path).split("/"), 0);
}
