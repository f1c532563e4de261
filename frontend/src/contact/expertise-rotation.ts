/** Spec: every 3000 ms the term fades out; 500 ms later the next one fades in. */
export const EXPERTISE_INTERVAL_MS = 3000;
export const EXPERTISE_FADE_MS = 500;
