/// <reference types="vite/client" />

/** The year of the build, set by vite.config.ts; the prerendered footer shows it. */
declare const __BUILD_YEAR__: number;
