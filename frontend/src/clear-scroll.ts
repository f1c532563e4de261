/** A vertical extent in page coordinates: pixels from the top of the document. */
export interface Extent {
  top: number;
  bottom: number;
}

export interface ClearScrollInput {
  /** The page's scroll position now, and the largest it can take. */
  scrollTop: number;
  maxScrollTop: number;
  viewportHeight: number;
  /** How much of the viewport the fixed header and the toasts cover, with a gap, at its top and at its bottom. */
  coveredTop: number;
  coveredBottom: number;
  /** What has the focus, with its frame: it must be in view in the uncovered part. None when nothing has it. */
  focus?: Extent;
  /** What must never be partly covered, focused or not: in the uncovered part, or out of view. */
  keep: readonly Extent[];
}

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);

/**
 * The scroll position nearest to the present one at which the focus is in view between the
 * covered bands and nothing of `keep` is under one of them. A focus taller than the room
 * between the bands shows its top. Where the focus and `keep` cannot both be cleared, the
 * focus wins.
 */
export function clearScrollTop(input: ClearScrollInput): number {
  const { scrollTop, maxScrollTop, viewportHeight: height, coveredTop, coveredBottom, focus, keep } = input;
  // The positions at which the focus is in view: its bottom above the lower band, its top below the upper.
  const highest = focus ? clamp(focus.top - coveredTop, 0, maxScrollTop) : maxScrollTop;
  const lowest = focus ? clamp(Math.min(focus.bottom - (height - coveredBottom), focus.top - coveredTop), 0, maxScrollTop) : 0;
  // The positions at which an element of `keep` would be partly under the upper or the lower band.
  const covered = keep.flatMap(({ top, bottom }) =>
    [
      [top - coveredTop, bottom],
      [top - height, bottom - height + coveredBottom],
    ].filter(([from, to]) => from! < to!),
  ) as [number, number][];
  const allowed = (position: number) => covered.every(([from, to]) => position <= from || position >= to);
  const nearest = clamp(scrollTop, lowest, highest);
  const candidates = [nearest, lowest, highest, ...covered.flat()].filter((position) => position >= lowest && position <= highest);
  const clear = candidates.filter(allowed).sort((a, b) => Math.abs(a - scrollTop) - Math.abs(b - scrollTop));
  return clear[0] ?? nearest;
}
