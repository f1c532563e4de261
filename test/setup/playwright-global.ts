/** Playwright Test's global setup (playwright.config.ts): the run's temporary files in a directory of its own (scratch-tmpdir.ts). */
import { useScratchTmpdir } from './scratch-tmpdir';

export default function globalSetup(): () => void {
  return useScratchTmpdir('playwright');
}
