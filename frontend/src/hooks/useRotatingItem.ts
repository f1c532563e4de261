import { useEffect, useState } from 'react';

interface Rotation {
  index: number;
  /** False while the current item fades out, just before the switch. */
  visible: boolean;
}

/**
 * Shows `items` one at a time: every `intervalMs` the current item fades out, and `fadeMs`
 * later the next one (wrapping to the first) takes its place and fades in. Starts at item 0
 * on the server and the client alike, so hydration matches. `paused` stops the cycle
 * (WCAG 2.2.2: a visitor must be able to stop content that updates by itself).
 */
export function useRotatingItem<T>(items: readonly T[], intervalMs: number, fadeMs: number, paused = false) {
  const [rotation, setRotation] = useState<Rotation>({ index: 0, visible: true });
  const count = items.length;

  useEffect(() => {
    if (paused) return;
    let fade: ReturnType<typeof setTimeout> | undefined;
    const next = (r: Rotation): Rotation => ({ index: (r.index + 1) % count, visible: true });
    const interval = setInterval(() => {
      setRotation((r) => ({ ...r, visible: false }));
      fade = setTimeout(() => setRotation(next), fadeMs);
    }, intervalMs);
    return () => {
      clearInterval(interval);
      clearTimeout(fade);
      // Stopped halfway through a fade: finish the switch, so nothing stays invisible.
      setRotation((r) => (r.visible ? r : next(r)));
    };
  }, [count, intervalMs, fadeMs, paused]);

  return { item: items[rotation.index] as T, index: rotation.index, visible: rotation.visible };
}
