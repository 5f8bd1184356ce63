import { z } from "zod";

/** A Markdown guide of an API, served at `/apis/{api}/guides/{slug}` and as `…/{slug}.md`. */
export const guideSchema = z
  .object({
    slug: z
      .string()
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "Use lowercase letters, digits and single dashes")
      .max(60),
    title: z.string().trim().min(1).max(200),
    markdown: z.string().max(100_000),
  })
  .strict();
export type Guide = z.infer<typeof guideSchema>;

/** The guides an API's registration stores (`Api.guides`); a value that does not parse is none. */
export const storedGuidesSchema = z.array(guideSchema).catch([]);

export const guideHref = (apiSlug: string, guideSlug: string) => `/apis/${apiSlug}/guides/${guideSlug}`;

/** The guide as one Markdown document: its title as the heading, then its text. */
export const guideDocument = (guide: Guide) => `# ${guide.title}\n\n${guide.markdown.trim()}\n`;

/** `Getting started!` → `getting-started` */
export const guideSlug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");

/** All of an API's guides as one Markdown text, each starting with its `# Title`: how the admin form edits them. */
export function guidesToMarkdown(guides: Guide[]): string {
  return guides.map(guideDocument).join("\n");
}

/**
 * The guides of a text where each `# Title` line (outside fenced code) starts one, its slug made from the title;
 * the problems instead when a guide has no usable title, or two share a slug.
 */
export function guidesFromMarkdown(text: string): { guides: Guide[] } | { problems: string[] } {
  const guides: Guide[] = [];
  const problems: string[] = [];
  let current: { title: string; lines: string[] } | undefined;
  const finish = () => {
    if (!current) return;
    const guide = { slug: guideSlug(current.title), title: current.title, markdown: current.lines.join("\n").trim() };
    if (guide.slug === "") problems.push(`"${current.title}" needs letters or digits to name its page`);
    else if (guides.some((other) => other.slug === guide.slug)) problems.push(`Two guides would be at /guides/${guide.slug}: give them different titles`);
    else if (!guideSchema.safeParse(guide).success) problems.push(`"${current.title}" is too long`);
    else guides.push(guide);
  };
  let fenced = false;
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    // A `# comment` in a code sample is not a title.
    const heading = fenced ? null : /^# (.+)$/.exec(line);
    if (heading) {
      finish();
      current = { title: heading[1]!.trim(), lines: [] };
    } else if (current) current.lines.push(line);
    else if (line.trim() !== "") problems.push("Start each guide with a `# Title` line");
  }
  finish();
  return problems.length > 0 ? { problems: [...new Set(problems)] } : { guides };
}
