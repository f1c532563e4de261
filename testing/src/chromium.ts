/**
 * Finds the system Chromium or Chrome for browser tests, Lighthouse and screenshots.
 * Nothing here downloads a browser: this machine cannot, and CI installs Debian's.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];
const ON_PATH = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The headless shell (Debian's `chromium-headless-shell`): the same Blink without the
 * browser's own window and WebUI, which is what Playwright itself runs for headless tests.
 * Full Chromium in its new headless mode starts a WebUI renderer beside every page: on a
 * 2-core machine it took the home page's tests 142 s, the shell 84 s.
 */
const HEADLESS_SHELL = ['/usr/bin/chromium-headless-shell', '/usr/lib/chromium/chromium-headless-shell'];

export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CHROME_PATH) {
    if (isExecutable(env.CHROME_PATH)) return env.CHROME_PATH;
    throw new Error(`CHROME_PATH is set to ${env.CHROME_PATH}, but no executable is there.`);
  }
  const onPath = ON_PATH.flatMap((name) => (env.PATH ?? '').split(delimiter).map((dir) => join(dir, name)));
  const found = [...CANDIDATES, ...onPath].find(isExecutable);
  if (found) return found;
  throw new Error(
    'No Chromium or Chrome found for the browser tests. Install one, e.g. `sudo apt-get install chromium` on Debian/Ubuntu, ' +
      'or set CHROME_PATH to the browser executable. No test downloads a browser.',
  );
}

/**
 * Flags that keep a headless Chromium quiet and offline: without the background-networking
 * ones it keeps trying Google hosts, which a closed network refuses.
 */
export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
];

/**
 * What the browser tests run (playwright.config.ts): the headless shell when the machine has one
 * and CHROME_PATH names no browser, else the full browser.
 */
export function findHeadlessShell(env: NodeJS.ProcessEnv = process.env): string {
  return (env.CHROME_PATH ? undefined : HEADLESS_SHELL.find(isExecutable)) ?? findChromium(env);
}

/**
 * The full headless Chromium for Playwright, the one Lighthouse measures with: the bench takes
 * it, so that its traces and Lighthouse's runs see the same browser.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    args: CHROMIUM_FLAGS.filter((f) => !f.startsWith('--headless')),
    headless: true,
  });
}
