/** An sRGB colour as three channels, 0–255. */
type Rgb = [number, number, number];

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

function parseHex(hex: string): Rgb {
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join("") : digits;
  return [0, 2, 4].map((start) => Number.parseInt(full.slice(start, start + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, "0")).join("")}`;
}

/** WCAG 2 relative luminance. */
function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((channel) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(parseHex(a)), luminance(parseHex(b))].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

function mix(from: Rgb, to: Rgb, share: number): Rgb {
  return from.map((channel, index) => channel + (to[index]! - channel) * share) as Rgb;
}

/**
 * The colours drawn with the operator's accent. Text on it is black or white, whichever
 * contrasts more, which is always at least 4.5:1 (WCAG AA) whatever the accent; the hover
 * shade moves the accent away from that text, so it never contrasts less.
 */
export function accentColours(accent: string): { accent: string; onAccent: string; accentHover: string } {
  const rgb = parseHex(accent);
  const whiteText = contrastRatio(toHex(rgb), toHex(WHITE)) >= contrastRatio(toHex(rgb), toHex(BLACK));
  return {
    accent: toHex(rgb),
    onAccent: whiteText ? "#ffffff" : "#000000",
    accentHover: toHex(mix(rgb, whiteText ? BLACK : WHITE, 0.15)),
  };
}
