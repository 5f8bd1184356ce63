import { describe, expect, it } from "vitest";
import { guidesFromMarkdown, guidesToMarkdown } from "./guides";

describe("guides as one Markdown text", () => {
  it("starts a guide at each # Title, its slug made from the title, and writes them back the same way", () => {
    const text = "# Getting started!\n\nCall it.\n\n## Paging\n\nFollow next.\n\n# Errors\n\nProblems.\n";
    const read = guidesFromMarkdown(text);
    expect(read).toEqual({
      guides: [
        { slug: "getting-started", title: "Getting started!", markdown: "Call it.\n\n## Paging\n\nFollow next." },
        { slug: "errors", title: "Errors", markdown: "Problems." },
      ],
    });
    expect("guides" in read && guidesFromMarkdown(guidesToMarkdown(read.guides))).toEqual(read);
    expect(guidesFromMarkdown("  \n")).toEqual({ guides: [] });
    const withSample = guidesFromMarkdown("# Setup\n\n```sh\n# a comment, not a title\nnpm start\n```\n");
    expect("guides" in withSample && withSample.guides.map((guide) => guide.title)).toEqual(["Setup"]);
  });

  it("names what stops the text from being guides", () => {
    expect(guidesFromMarkdown("Text before any title\n# Errors\n")).toEqual({ problems: ["Start each guide with a `# Title` line"] });
    expect(guidesFromMarkdown("# Errors\na\n# errors?\nb")).toEqual({ problems: ["Two guides would be at /guides/errors: give them different titles"] });
    expect(guidesFromMarkdown("# !!!\n")).toEqual({ problems: ['"!!!" needs letters or digits to name its page'] });
  });
});
