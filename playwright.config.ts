/**
 * The browser tier: the built site (`npm run build` first; `npm run test:e2e` does both) behind
 * the local stack, in the system Chromium. Playwright's own browser download is never used:
 * the tests take Chromium's headless shell where it is installed, or CHROME_PATH
 * (@site/testing/chromium). The stack each test file needs is a fixture
 * (test/browser/fixtures.ts).
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, findHeadlessShell } from '@site/testing/chromium';
import { SCREENS, type Screen } from './test/browser/viewports.ts';

/**
 * The tests of a screen's project: those tagged with it; the desktop's also runs every test
 * tagged with no screen at all (a test about no screen in particular runs once).
 */
function testsOn(screen: Screen): RegExp[] {
  const others = Object.keys(SCREENS).filter((other) => other !== screen);
  return screen === 'desktop' ? [/@desktop\b/, new RegExp(`^(?!.*@(${others.join('|')})\\b)`)] : [new RegExp(`@${screen}\\b`)];
}

export default defineConfig({
  testDir: '.',
  testMatch: ['test/browser/**/*.spec.ts', 'frontend/**/*.spec.ts'],
  // Copies of the tree (a mutation run's sandbox, the bench's release build) are not the tests.
  testIgnore: ['**/node_modules/**', '**/.work/**'],
  outputDir: 'test-results',
  globalSetup: './test/setup/playwright-global.ts',
  forbidOnly: !!process.env.CI,
  // A worker per core, not Playwright's default of one per two: most of a browser test's time is a
  // wait, on a page or on the function's clock, which another worker's test can use. On two busy
  // cores the tier took two thirds of the time with two workers that it took with one.
  workers: '100%',
  reporter: [['list'], ['html', { open: 'never' }]],
  use: {
    launchOptions: {
      executablePath: findHeadlessShell(),
      args: CHROMIUM_FLAGS.filter((flag) => !flag.startsWith('--headless')),
    },
    // A failed test keeps its trace (each action with the page's DOM before and after it, the
    // console, the network) and a screenshot. Not the trace's filmstrip of the screen: recording
    // it cost every test a fifth to a third more time on two cores.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
  },
  projects: Object.entries(SCREENS).map(([screen, options]) => ({
    name: screen,
    grep: testsOn(screen as Screen),
    use: options,
  })),
});
