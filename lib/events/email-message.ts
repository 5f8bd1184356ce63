import type { EventMessage } from "./registry";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text from payloads (names, reasons, addresses) goes into HTML as text, never as markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

export type EmailBody = { subject: string; text: string; html: string; link: string };

/** An event's message as an email: a plain-text and an HTML body, each ending with the link to its portal page. */
export function renderEmail(message: EventMessage, input: { publicUrl: string; portalName: string }): EmailBody {
  const link = `${input.publicUrl}${message.link.path}`;
  const text = [...message.paragraphs, `${message.link.label}: ${link}`, `— ${input.portalName}`].join("\n\n");
  const html = [
    "<!doctype html>",
    `<html><body style="font-family:system-ui,sans-serif;line-height:1.5">`,
    ...message.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    `<p><a href="${escapeHtml(link)}">${escapeHtml(message.link.label)}</a></p>`,
    `<p style="color:#555">${escapeHtml(input.portalName)}</p>`,
    "</body></html>",
  ].join("\n");
  return { subject: message.subject, text, html, link };
}
