/**
 * The hostile-bodies part of `npm run bench` on its own (`npx tsx bench/run-hostile-bodies.ts`),
 * for checking it after a change to how the function reads a body: the same bundle, stack and
 * measurement, its row of the table and its table of bodies. Writes no report.
 */
import { join } from 'node:path';
import { makeSiteDir } from '@site/testing/fixtures/site';
import { EPHEMERAL_STACK, startLocalStack } from '@site/local/stack';
import { hostileBodiesRow } from './budget-rows';
import { buildLambdaBundle } from './lambda-bundle';
import { hostileBodiesSection } from './markdown';
import { measureHostileBodies } from './hostile-bodies';
import { renderText } from './report';

const WORK_DIR = join(import.meta.dirname, '.work');
const { outfile } = await buildLambdaBundle(join(WORK_DIR, 'lambda'));
// The site is not what is measured: the smallest build serves.
const stack = await startLocalStack({ ...EPHEMERAL_STACK, siteDir: makeSiteDir() });
try {
  const hostile = await measureHostileBodies({ stack, bundlePath: outfile, logPath: join(WORK_DIR, 'hostile-bodies.log'), calls: 200 });
  console.log(`${hostileBodiesSection(hostile).join('\n')}\n${renderText([hostileBodiesRow(hostile)])}`);
} finally {
  await stack.close();
}
// The SDK's keep-alive agents would otherwise hold the process open a while.
process.exit(0);
