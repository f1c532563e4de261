/**
 * `npm run smoke -- <site-url> [--api <execute-api-url>] [--timeout <seconds>] [--stage <stage>] [--deliver]`:
 * does a deployed stage work? Run after every deploy (SiteUrl and ApiUrl are stack outputs).
 * Without --deliver it e-mails nobody and stores nothing. Where the credentials allow, it then
 * reads the stage's health from its table (smoke/health.ts): the last delivery event, the
 * oldest undelivered message, the retry backlog; where they do not, one line says why. With
 * --deliver it then sends one marked test message through the site and waits until SES
 * reports it delivered to the firm. Both read the stage's table as `npm run messages` does
 * (the local stack's without AWS settings; --stage names the stage, by default cdk.json's).
 * Exit code 0: all passed; 1: a check failed, the message did not arrive or the site did not
 * answer; 2: the command itself was wrong. The health never changes the exit code: it reports
 * the stage's data, which a release neither made nor can fix.
 */
import { parseArgs } from 'node:util';
import { explain } from './messages/explain';
import { regionText, resolveTarget, TargetError } from './messages/target';
import { deliverTestMessage } from './smoke/deliver';
import { healthSource, readStageHealth } from './smoke/stage-health';
import { baseUrl, DEFAULT_TIMEOUT_MS, formatReport, runSmoke, Unreachable } from './smoke/run';

const USAGE = 'Usage: npm run smoke -- <site-url> [--api <execute-api-url>] [--timeout <seconds>] [--stage <stage>] [--deliver]';

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function options() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        api: { type: 'string' },
        timeout: { type: 'string' },
        deliver: { type: 'boolean' },
        stage: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
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

/** The delivery check: true when the message arrived; its one line either way. */
async function deliver(site: string): Promise<boolean> {
  let target;
  try {
    target = await resolveTarget(process.env, values.stage);
  } catch (error) {
    console.error(
      `Delivery not checked: ${error instanceof TargetError ? error.message : explain(error, { service: 'CloudFormation', where: `in ${regionText(process.env)}` })}`,
    );
    return false;
  }
  try {
    const ending = await deliverTestMessage({
      site: baseUrl(site, 'The site URL'),
      table: target.table,
      timeoutMs: timeoutSeconds * 1000,
      progress: (line) => console.error(`  ${line}`),
    });
    (ending.delivered ? console.log : console.error)(`Delivery: ${ending.line}`);
    return ending.delivered;
  } catch (error) {
    console.error(`Delivery not checked: ${explain(error, { service: 'DynamoDB', where: target.where, tableName: target.table.name })}`);
    return false;
  }
}

try {
  const results = await runSmoke({ site: positionals[0]!, api: values.api, timeoutMs: timeoutSeconds * 1000 });
  console.log(formatReport(positionals[0]!, results));
  const source = healthSource(process.env, positionals[0]!, values.stage);
  console.log(`\n${'skip' in source ? `Health not read: ${source.skip}` : await readStageHealth(process.env, values.stage)}`);
  const passed = results.every((result) => result.problems.length === 0);
  const delivered = values.deliver ? await deliver(positionals[0]!) : true;
  process.exit(passed && delivered ? 0 : 1);
} catch (error) {
  if (error instanceof Unreachable) {
    console.error(error.message);
    process.exit(1);
  }
  fail((error as Error).message);
}
