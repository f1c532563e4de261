/**
 * `npm run smoke -- <site-url> [--api <execute-api-url>] [--timeout <seconds>]`: does a
 * deployed stage work? Run after every deploy (SiteUrl and ApiUrl are stack outputs). It
 * e-mails nobody and stores nothing. Exit code 0: all passed; 1: a check failed or the site
 * did not answer; 2: the command itself was wrong.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_TIMEOUT_MS, formatReport, runSmoke, Unreachable } from './smoke/run';

const USAGE = 'Usage: npm run smoke -- <site-url> [--api <execute-api-url>] [--timeout <seconds>]';

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function options() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: { api: { type: 'string' }, timeout: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    return fail((error as Error).message);
  }
}

const { values, positionals } = options();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (positionals.length !== 1)
  fail(positionals.length === 0 ? 'Give the site URL (the SiteUrl output).' : `One site URL, not ${positionals.length}.`);
const timeoutSeconds = values.timeout === undefined ? DEFAULT_TIMEOUT_MS / 1000 : Number(values.timeout);
if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) fail(`--timeout ${values.timeout}: not a number of seconds.`);

try {
  const results = await runSmoke({ site: positionals[0]!, api: values.api, timeoutMs: timeoutSeconds * 1000 });
  console.log(formatReport(positionals[0]!, results));
  process.exit(results.some((result) => result.problems.length > 0) ? 1 : 0);
} catch (error) {
  if (error instanceof Unreachable) {
    console.error(error.message);
    process.exit(1);
  }
  fail((error as Error).message);
}
