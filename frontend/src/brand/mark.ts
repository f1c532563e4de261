/**
 * The firm's mark, described once: rising bars with the 'streepje' ahead of them on a rounded
 * tile, on a 40-unit grid. The logo in the page draws it (components/Logo), and the build
 * renders the favicons, the app icons and the share picture from it (build/brand-files.ts).
 */

/** The brand's two colours: the tile's amber and the navy of the header and hero. */
export const BRAND_COLORS = { accent: '#f2a93b', navy: '#0b1f3f' } as const;

export interface MarkRect {
  x: number;
  y: number;
  width: number;
  height: number;
  rx: number;
}

export const MARK = {
  size: 40,
  tile: { rx: 10, fill: BRAND_COLORS.accent },
  /** The 'streepje' first, then the three bars; all navy. */
  shapes: [
    { x: 8, y: 9, width: 11, height: 3.5, rx: 1.75 },
    { x: 8, y: 21, width: 6, height: 11, rx: 1.5 },
    { x: 17, y: 16, width: 6, height: 16, rx: 1.5 },
    { x: 26, y: 9, width: 6, height: 23, rx: 1.5 },
  ] satisfies MarkRect[],
  shapeFill: BRAND_COLORS.navy,
} as const;

/**
 * The mark as a standalone SVG document. `tileRadius` 0 gives a square tile, for icons the
 * platform rounds itself (Apple's touch icon); `inset` shrinks the mark into the middle of the
 * tile, for icons that may be cut to a circle (a manifest's maskable icon).
 */
export function markSvg({ tileRadius = MARK.tile.rx, inset = 0 }: { tileRadius?: number; inset?: number } = {}): string {
  const scale = (MARK.size - 2 * inset) / MARK.size;
  const shapes = MARK.shapes
    .map(({ x, y, width, height, rx }) => `<rect x="${x}" y="${y}" width="${width}" height="${height}" rx="${rx}"/>`)
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${MARK.size} ${MARK.size}">` +
    `<rect width="${MARK.size}" height="${MARK.size}" rx="${tileRadius}" fill="${MARK.tile.fill}"/>` +
    `<g fill="${MARK.shapeFill}" transform="translate(${inset} ${inset}) scale(${scale})">${shapes}</g></svg>`
  );
}
