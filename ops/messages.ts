/**
 * `npm run messages -- <command>`: read, resend, export and erase stored contact messages,
 * for whoever runs the site and answers the firm's privacy requests. Against the local stack
 * by default, or AWS with AWS_REGION (see messages/target.ts). Every failure is one line on
 * stderr and a non-zero exit: 1 when the command could not be done, 2 for a bad command line.
 */
import { parseArguments, UsageError } from './messages/arguments';
import { runCommand } from './messages/commands';
import { CommandError } from './messages/errors';
import { explain } from './messages/explain';
import { regionText, resolveTarget, TargetError, type Target } from './messages/target';

async function main(): Promise<number> {
  let invocation;
  try {
    invocation = parseArguments(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }

  let target: Target | undefined;
  try {
    target = await resolveTarget(process.env, invocation.stage);
    await runCommand(invocation.command, target, process.env);
    return 0;
  } catch (error) {
    if (error instanceof TargetError || error instanceof CommandError) console.error(error.message);
    else if (target) console.error(explain(error, { service: 'DynamoDB', where: target.where, tableName: target.table.name }));
    else console.error(explain(error, { service: 'CloudFormation', where: `in ${regionText(process.env)}` }));
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    // Only a bug gets here; still one line, and by name, not a stack trace.
    console.error(`npm run messages failed unexpectedly: ${error.name}.`);
    process.exit(2);
  },
);
