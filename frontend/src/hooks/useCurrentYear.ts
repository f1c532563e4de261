import { useSyncExternalStore } from 'react';

const noChanges = () => () => {};

/**
 * The current year. The prerender and the hydrating client both use the build year, so
 * hydration always matches; right after, the client switches to the visitor's clock if the
 * year has turned since the build.
 */
export function useCurrentYear(): number {
  return useSyncExternalStore(
    noChanges,
    () => new Date().getFullYear(),
    () => __BUILD_YEAR__,
  );
}
