/**
 * The handler-latency part of `npm run bench` on its own (`npx tsx bench/run-handler-latency.ts`),
 * for checking the function's path after a change to it: the same bundle, stack, levels and
 * calls, its rows of the table and its section. Writes no report.
 */
import { join } from 'node:path';
import { makeSiteDir } from '@site/testing/fixtures/site';
import { EPHEMERAL_STACK, startLocalStack } from '@site/local/stack';
import { handlerLatencyRows } from './budget-rows';
import { measureHandlerLatency } from './handler-latency';
import { buildLambdaBundle } from './lambda-bundle';
import { handlerLatencySection } from './markdown';
import { renderText } from './report';
import { LATENCY_CONCURRENCY, LATENCY_REQUESTS, LATENCY_WARMUP } from './budgets';

const WORK_DIR = join(import.meta.dirname, '.work');
const { outfile } = await buildLambdaBundle(join(WORK_DIR, 'lambda'));
// The site is not what is measured: the smallest build serves.
const stack = await startLocalStack({ ...EPHEMERAL_STACK, siteDir: makeSiteDir() });
try {
  const latency = await measureHandlerLatency({
    stack,
    bundlePath: outfile,
    logPath: join(WORK_DIR, 'handler.log'),
    concurrency: LATENCY_CONCURRENCY,
    requests: LATENCY_REQUESTS,
    warmup: LATENCY_WARMUP,
  });
  console.log(`${handlerLatencySection(latency).join('\n')}\n${renderText(handlerLatencyRows(latency))}`);
} finally {
  await stack.close();
}
// The SDK's keep-alive agents would otherwise hold the process open a while.
process.exit(0);
