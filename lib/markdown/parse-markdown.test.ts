import { describe, expect, it } from "vitest";
import { parseInline, parseMarkdown, safeHref } from "./parse-markdown";

describe("Markdown", () => {
  it("reads headings, paragraphs, lists and fenced code", () => {
    const source = "## Usage\nFirst line\nsame paragraph.\n\n- one\n- two\n\n1. first\n2. second\n\n```\n<b>raw</b>\n```";
    expect(parseMarkdown(source)).toEqual([
      { kind: "heading", level: 2, children: [{ kind: "text", text: "Usage" }] },
      { kind: "paragraph", children: [{ kind: "text", text: "First line same paragraph." }] },
      { kind: "list", ordered: false, items: [[{ kind: "text", text: "one" }], [{ kind: "text", text: "two" }]] },
      { kind: "list", ordered: true, items: [[{ kind: "text", text: "first" }], [{ kind: "text", text: "second" }]] },
      { kind: "code", text: "<b>raw</b>" },
    ]);
  });

  it("reads inline code, emphasis and links", () => {
    expect(parseInline("Send `If-Match`, **really** *now*: [docs](https://example.com/a?b=c)")).toEqual([
      { kind: "text", text: "Send " },
      { kind: "code", text: "If-Match" },
      { kind: "text", text: ", " },
      { kind: "strong", children: [{ kind: "text", text: "really" }] },
      { kind: "text", text: " " },
      { kind: "em", children: [{ kind: "text", text: "now" }] },
      { kind: "text", text: ": " },
      { kind: "link", href: "https://example.com/a?b=c", external: true, children: [{ kind: "text", text: "docs" }] },
    ]);
    expect(parseInline("snake_case_name")).toEqual([{ kind: "text", text: "snake_case_name" }]);
  });

  it("keeps raw HTML as text and drops link targets that are not http(s) or relative", () => {
    expect(parseInline('<img src=x onerror="alert(1)">')).toEqual([{ kind: "text", text: '<img src=x onerror="alert(1)">' }]);
    expect(parseInline("[click](javascript:alert(1))")).toEqual([
      { kind: "text", text: "click" },
      { kind: "text", text: ")" },
    ]);
    for (const href of ["javascript:alert(1)", "JAVASCRIPT:x", "data:text/html,x", "vbscript:x", "java\tscript:x", " javascript:x", "\\\\evil"]) {
      expect(safeHref(href)).toBeUndefined();
    }
    for (const href of ["https://example.com", "http://example.com", "/apis/notifications", "#scopes", "guide?x=1"]) expect(safeHref(href)).toBe(href);
  });

  it("marks http(s) and protocol-relative links external, and the portal's own links not", () => {
    const link = (href: string) => parseInline(`[x](${href})`)[0];
    for (const href of ["//evil.example/phish", "https://example.com", "HTTP://example.com"]) {
      expect(link(href), href).toMatchObject({ kind: "link", href, external: true });
    }
    for (const href of ["/apis/notifications", "#scopes", "guide?x=1", "./guide", "../apis"])
      expect(link(href), href).toMatchObject({ kind: "link", href, external: false });
  });
});
