/**
 * An operator working through a guide's marked steps in order: each configuration step is added
 * to the checkout's cdk.json, each command typed into a terminal in the checkout, with the values
 * the guide leaves to the operator (`<account-id>`, `<stage>`, `<tag>`, …) filled in. The first
 * command that fails stops the guide, as it would stop an operator.
 */
import { expect } from 'vitest';
import type { Guide } from './guide';
import { runInTerminal, tail, type Run } from './operator';

/** A command moto cannot serve, and why; the runner records it instead of running it. */
export interface NotAgainstMoto {
  command: RegExp;
  reason: string;
}

export interface GuideRunner {
  /**
   * The guide's next steps, up to and including the first command that matches `until`; without
   * it, all that are left. `values` fills the guide's `<placeholders>` from here on.
   */
  through(until: RegExp, values?: Record<string, string>): Promise<Run>;
  through(until?: undefined, values?: Record<string, string>): Promise<undefined>;
  ran: Run[];
  notRun: { command: string; reason: string }[];
}

export function guideRunner(
  guide: Guide,
  where: string,
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    notAgainstMoto: NotAgainstMoto[];
    timeoutMs: number;
    /** How a configuration step reaches the checkout's cdk.json. */
    configure?: (keys: Record<string, unknown>) => void;
  },
): GuideRunner {
  const ran: Run[] = [];
  const notRun: { command: string; reason: string }[] = [];
  const values: Record<string, string> = {};
  let next = 0;
  let failed: string | undefined;

  async function through(until?: RegExp, more: Record<string, string> = {}): Promise<Run | undefined> {
    Object.assign(values, more);
    if (failed) throw new Error(`Not run: \`${failed}\` failed before.`);
    while (next < guide.steps.length) {
      const step = guide.steps[next++]!;
      if ('context' in step) {
        if (!options.configure) throw new Error(`${where}: a configuration step, but this guide's checkout takes none.`);
        options.configure(step.context);
        continue;
      }
      const skipped = options.notAgainstMoto.find(({ command }) => command.test(step.command));
      if (skipped) {
        notRun.push({ command: step.command, reason: skipped.reason });
        continue;
      }
      const command = Object.entries(values).reduce((text, [name, value]) => text.replaceAll(name, value), step.command);
      const placeholder = /<[\w -]+>/.exec(command);
      if (placeholder) {
        throw new Error(
          `\`${step.command}\`: the test has no value for ${placeholder[0]}; give it or list the command as not against moto.`,
        );
      }
      const run = await runInTerminal(command, { cwd: options.cwd, env: options.env, timeoutMs: options.timeoutMs });
      ran.push(run);
      if (run.exitCode !== 0 || run.output.includes('Unknown option')) failed = command;
      expect(run.exitCode, tail(run)).toBe(0);
      // The CDK CLI ignores a flag it does not know, with only this line to say so.
      expect(run.output, tail(run)).not.toContain('Unknown option');
      if (until?.test(command)) return run;
    }
    if (!until) return undefined;
    throw new Error(`${where} has no command matching ${until} after the ones already run.`);
  }

  return { through: through as GuideRunner['through'], ran, notRun };
}
