/** Gatehouse's mark, 24 × 24: a wall with four merlons and an arched gate, drawn with the even-odd rule. */
export const GATEHOUSE_MARK_PATH = "M3 21V5h3v2h2V5h3v2h2V5h3v2h2V5h3v16Zm6.5 0v-6a2.5 2.5 0 0 1 5 0v6Z";

/** The mark as an SVG document in one colour: the default favicon. */
export function gatehouseMarkSvg(colour: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="${colour}" fill-rule="evenodd" d="${GATEHOUSE_MARK_PATH}"/></svg>`;
}
