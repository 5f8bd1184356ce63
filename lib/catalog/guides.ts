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
