/**
 * `npm start`: builds the site if it is missing or older than its sources, then runs the
 * whole product on one machine until Ctrl-C.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import {
  exitOnStartFailure,
  integerFrom,
  localDelivery,
  localStackPorts,
  stopOnSignals,
  visitorLimitOverride,
  mailBudgetOverride,
} from './cli';
import { LOCAL_MAIL } from '@site/local/defaults';
import { DEFAULT_DATA_DIR, DEFAULT_SITE_DIR, REPO_ROOT, startLocalStack } from './stack';

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

function siteIsStale(): boolean {
  const built = join(DEFAULT_SITE_DIR, 'index.html');
  if (!existsSync(built)) return true;
  const sources = ['frontend/src', 'frontend/build', 'frontend/public', 'frontend/index.html', 'frontend/vite.config.ts', 'core/src'];
  return Math.max(...sources.map((source) => newestMtime(join(REPO_ROOT, source)))) > statSync(built).mtimeMs;
}

if (siteIsStale()) {
  console.log('Building the site (frontend/dist is missing or older than its sources)…');
  execFileSync('npm', ['run', 'build', '--silent', '-w', 'frontend'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

/** A directory as the banner names it: relative to where npm start runs when it is inside, else in full. */
function shown(dir: string): string {
  const path = relative(process.cwd(), resolve(dir));
  return path === '' || path.startsWith('..') ? resolve(dir) : path;
}

const delivery = localDelivery();
try {
  const dataDir = process.env.DATA_DIR || DEFAULT_DATA_DIR;
  const stack = await startLocalStack({
    ...localStackPorts(),
    retryIntervalMs: integerFrom('RETRY_INTERVAL_SECONDS', 60, 86_400) * 1000,
    outsideCheckIntervalMs: integerFrom('OUTSIDE_CHECK_INTERVAL_SECONDS', 60, 86_400) * 1000,
    dataDir,
    visitorLimit: visitorLimitOverride(),
    mailBudgets: mailBudgetOverride(),
    ...delivery,
  });
  console.log(`
  Site      ${stack.urls.site}        the production build, served as CloudFront serves it
  API       ${stack.urls.api}        the API without CloudFront in front: refuses every call (403)
  DynamoDB  ${stack.urls.dynamodb}        table ${stack.tableName}, data in ${shown(dataDir)} (npm run messages lists it)
  SES       ${stack.urls.ses}        every e-mail the site sent, to ${delivery.contactRecipient ?? LOCAL_MAIL.to}
  Metrics   ${stack.urls.metrics}        the path's counts (received, stored, e-mailed, …), as the stage's dashboard shows them,
                                    and the outside check's last run (every minute: page, asset, challenge, a post to SES's simulator)
  Alarms    ${stack.urls.monitoring}        the stack's alarm and schedules as CloudWatch and EventBridge answer them (npm run smoke's health)

  Ctrl-C stops everything.
`);
  stopOnSignals(() => stack.close());
} catch (error) {
  exitOnStartFailure(error);
}
