/**
 * A small Markdown subset for API descriptions and changelogs: headings,
 * paragraphs, lists, fenced code, inline code, emphasis and links. It builds
 * a tree, never HTML: raw HTML stays text, and a link keeps its target only
 * when that is http(s) or relative.
 */
export type Inline =
  | { kind: "text"; text: string }
  | { kind: "code"; text: string }
  | { kind: "strong" | "em"; children: Inline[] }
  /** `external`: the link leaves the portal (http(s) or protocol-relative), so it gets rel="noopener noreferrer nofollow" */
  | { kind: "link"; href: string; external: boolean; children: Inline[] };

export type Block =
  | { kind: "heading"; level: number; children: Inline[] }
  | { kind: "paragraph"; children: Inline[] }
  | { kind: "list"; ordered: boolean; items: Inline[][] }
  | { kind: "code"; text: string };

const INLINE = /`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]*)\)|\*([^*\s][^*]*)\*|\b_([^_\s][^_]*)_\b/;

/** An http(s) URL or a relative one; anything else (javascript:, data:, …) is refused. */
export function safeHref(url: string): string | undefined {
  if (url === "" || /[\u0000-\u0020\u007f\\]/.test(url)) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return url;
  return scheme === "http" || scheme === "https" ? url : undefined;
}

/** Whether a safe href leaves the portal: an absolute http(s) URL or a protocol-relative one (`//host/…`). */
function isExternal(href: string): boolean {
  return href.startsWith("//") || /^https?:/i.test(href);
}

export function parseInline(text: string): Inline[] {
  const nodes: Inline[] = [];
  let rest = text;
  while (rest !== "") {
    const match = INLINE.exec(rest);
    if (!match) {
      nodes.push({ kind: "text", text: rest });
      break;
    }
    if (match.index > 0) nodes.push({ kind: "text", text: rest.slice(0, match.index) });
    const [whole, code, strong, linkText, linkHref, star, underscore] = match;
    if (code !== undefined) nodes.push({ kind: "code", text: code });
    else if (strong !== undefined) nodes.push({ kind: "strong", children: parseInline(strong) });
    else if (linkText !== undefined) {
      const href = safeHref(linkHref ?? "");
      nodes.push(href ? { kind: "link", href, external: isExternal(href), children: parseInline(linkText) } : { kind: "text", text: linkText });
    } else nodes.push({ kind: "em", children: parseInline(star ?? underscore ?? "") });
    rest = rest.slice(match.index + whole.length);
  }
  return nodes;
}

const FENCE = /^\s*```/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/;

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: "paragraph", children: parseInline(paragraph.join(" ")) });
    paragraph = [];
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const listMatch = BULLET.exec(line) ?? NUMBERED.exec(line);
    if (line.trim() === "") flush();
    else if (FENCE.test(line)) {
      flush();
      const code: string[] = [];
      while (++index < lines.length && !FENCE.test(lines[index]!)) code.push(lines[index]!);
      blocks.push({ kind: "code", text: code.join("\n") });
    } else if (HEADING.test(line)) {
      flush();
      const [, hashes, text] = HEADING.exec(line)!;
      blocks.push({ kind: "heading", level: hashes!.length, children: parseInline(text!) });
    } else if (listMatch) {
      flush();
      const ordered = !BULLET.test(line);
      const last = blocks.at(-1);
      const item = parseInline(listMatch[1]!);
      if (last?.kind === "list" && last.ordered === ordered && lines[index - 1]?.trim() !== "") last.items.push(item);
      else blocks.push({ kind: "list", ordered, items: [item] });
    } else paragraph.push(line.trim());
  }
  flush();
  return blocks;
}
