import type { Plugin } from 'vite';

/** The module Vite wraps every dynamic `import()` of the app in (`__vitePreload`). */
const PRELOAD_HELPER = '\0vite/preload-helper.js';
/** Only Vite's own helper says this: in a chunk, it means the helper below was not used. */
const VITE_HELPER_MARK = 'vite:preloadError';

/**
 * Vite's preload helper as it is with `modulePreload: false`: the import itself. Vite puts its
 * whole helper (module preload links, CSS preloads, a `vite:preloadError` event nothing here
 * listens for) into the first-load chunk even when every call preloads nothing, about 650 B
 * gzip of the first-load budget. A failed import still rejects, as with Vite's helper. Should
 * Vite rename its helper, the build fails rather than quietly ship it again.
 */
export function bareDynamicImport(): Plugin {
  return {
    name: 'bare-dynamic-import',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source) => (source === PRELOAD_HELPER ? PRELOAD_HELPER : undefined),
    load: (id) => (id === PRELOAD_HELPER ? 'export const __vitePreload = (load) => load();' : undefined),
    generateBundle(_options, bundle) {
      const withHelper = Object.values(bundle).filter((file) => file.type === 'chunk' && file.code.includes(VITE_HELPER_MARK));
      if (withHelper.length > 0)
        this.error(
          `Vite's preload helper is back in ${withHelper.map((file) => file.fileName).join(', ')}: has its module's id changed from ${JSON.stringify(PRELOAD_HELPER)}?`,
        );
    },
  };
}
