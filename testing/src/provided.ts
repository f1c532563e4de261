/** What the run's global setup hands every test file (stand-ins.ts), by name. */
import type { EmulatorUrls } from '@site/emulators/connections';

declare module 'vitest' {
  export interface ProvidedContext {
    standIns: EmulatorUrls;
  }
}

export const STAND_INS = 'standIns';
