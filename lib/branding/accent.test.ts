import { describe, expect, it } from "vitest";
import { accentColours, contrastRatio } from "./accent";

describe("accent colours", () => {
  it("puts white text on a dark accent and black text on a light one", () => {
    expect(accentColours("#1d4ed8").onAccent).toBe("#ffffff");
    expect(accentColours("#fde047").onAccent).toBe("#000000");
  });

  it("reads #rgb as #rrggbb", () => {
    expect(accentColours("#0F0").accent).toBe("#00ff00");
  });

  it("keeps text on the accent and on its hover shade at WCAG AA, whatever the accent", () => {
    for (const accent of ["#000000", "#ffffff", "#777777", "#808080", "#ff0000", "#00ff00", "#0000ff", "#1d4ed8", "#fde047", "#0f766e", "#e11d48"]) {
      const colours = accentColours(accent);
      expect(contrastRatio(colours.accent, colours.onAccent), accent).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(colours.accentHover, colours.onAccent), accent).toBeGreaterThanOrEqual(contrastRatio(colours.accent, colours.onAccent));
    }
  });
});
