/**
 * `npm run dev`: Vite's dev server with hot reload for the site, with /api proxied to the
 * same local backend `npm start` runs (edge → handler → dynalite + SES emulator).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'vite';
import {
  exitOnStartFailure,
  localDelivery,
  localStackPorts,
  portFrom,
  stopOnSignals,
  visitorLimitOverride,
  mailBudgetOverride,
} from './cli';
import { LOCAL_PORTS } from '@site/local/defaults';
import { LOOPBACK } from '@site/emulators/connections';
import { DEFAULT_SITE_DIR, REPO_ROOT, startLocalStack } from './stack';

// The edge also serves the production build; dev only needs it to exist.
if (!existsSync(join(DEFAULT_SITE_DIR, 'index.html'))) {
  execFileSync('npm', ['run', 'build', '--silent', '-w', 'frontend'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

try {
  const stack = await startLocalStack({
    ...localStackPorts(),
    visitorLimit: visitorLimitOverride(),
    mailBudgets: mailBudgetOverride(),
    ...localDelivery(),
    quiet: true,
  });
  const vite = await createServer({
    root: join(REPO_ROOT, 'frontend'),
    configFile: join(REPO_ROOT, 'frontend/vite.config.ts'),
    // Host as the browser sent it (Vite's shorthand would rewrite it): the function compares a post's Origin with it.
    server: { host: LOOPBACK, port: portFrom(LOCAL_PORTS.dev), proxy: { '/api': { target: stack.urls.site, changeOrigin: false } } },
  });
  await vite.listen();
  console.log(`
  Dev site  ${vite.resolvedUrls?.local[0] ?? ''}   hot reload; /api goes to ${stack.urls.site}
  SES       ${stack.urls.ses}   every e-mail the site sent
  Metrics   ${stack.urls.metrics}   the path's counts, as the stage's dashboard shows them
`);
  stopOnSignals(async () => {
    await vite.close();
    await stack.close();
  });
} catch (error) {
  exitOnStartFailure(error);
}
