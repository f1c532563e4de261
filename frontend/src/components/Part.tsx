import { Suspense, use, useLayoutEffect, type ReactNode } from 'react';
import { gateOf, partHydrated } from '../hydration';

/** Waits at the part's gate until its turn to hydrate (see hydration.ts); renders straight through when there is no gate. */
function Gate({ id, children }: { id: string; children: ReactNode }) {
  const gate = gateOf(id);
  if (gate) use(gate);
  useLayoutEffect(() => partHydrated(id), [id]);
  return children;
}

/**
 * A part of the page that hydrates on its own turn: `id` is the id of the element the part
 * renders, which tells the schedule where it is and when the visitor uses it. Nothing here
 * is ever shown as a fallback: a waiting part keeps its prerendered markup.
 */
export function Part({ id, children }: { id: string; children: ReactNode }) {
  return (
    <Suspense>
      <Gate id={id}>{children}</Gate>
    </Suspense>
  );
}
