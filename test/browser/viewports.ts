/**
 * The screens the browser tests look at, one Playwright project each (playwright.config.ts):
 * a phone held upright (touch, a mobile viewport), a tablet and a desktop. A test names the
 * screens it is about with their tags; a test that names none is about no screen in particular
 * and runs once, on the desktop's.
 */
import type { BrowserContextOptions } from '@playwright/test';

export const SCREENS = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  tablet: { viewport: { width: 768, height: 1024 }, isMobile: false, hasTouch: false },
  desktop: { viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false },
} as const satisfies Record<string, BrowserContextOptions>;

export type Screen = keyof typeof SCREENS;

/** The tags that run a test on these screens: `test(title, { tag: on('phone', 'desktop') }, …)`. */
export const on = (...screens: Screen[]): string[] => screens.map((screen) => `@${screen}`);
