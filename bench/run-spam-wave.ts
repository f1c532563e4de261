/**
 * The spam-wave part of `npm run bench` on its own (`npx tsx --tsconfig bench/tsconfig.json
 * bench/run-spam-wave.ts`), for checking it after a change to the signals or the budgets: the
 * same measurement and its rows of the table. Writes no report.
 */
import { EPHEMERAL_STACK, startLocalStack } from '@site/local/stack';
import { spamWaveRows } from './budget-rows';
import { renderText } from './report';
import { measureSpamWave } from './spam-wave';

const stack = await startLocalStack({ ...EPHEMERAL_STACK });
try {
  console.log(renderText(spamWaveRows(await measureSpamWave(stack))));
} finally {
  await stack.close();
}
process.exit(0);
