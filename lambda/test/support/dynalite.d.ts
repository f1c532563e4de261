// dynalite ships no types; infra/local/emulators.ts imports it, and this project type-checks
// that file through the tests.
declare module 'dynalite' {
  import type { Server } from 'node:http';
  export default function dynalite(options?: {
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
  }): Server;
}
