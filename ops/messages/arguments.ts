/** The command line of `npm run messages`, read into one command or refused with a usage line. No I/O. */
import { MESSAGE_STATUSES, type MessageStatus } from '@site/core/table';

export type Command =
  | { name: 'list'; status?: MessageStatus; limit: number }
  | { name: 'show'; id: string }
  | { name: 'resend'; id: string }
  | { name: 'export'; address: string }
  | { name: 'erase'; address: string; yes: boolean };

export interface Invocation {
  command: Command;
  /** Find the table through this stage's stack, whatever else is configured. */
  stage?: string;
}

export const USAGE = `Usage: npm run messages -- <command> [--stage <stage>]
  list [--status ${MESSAGE_STATUSES.join('|')}] [--limit N]   the latest messages, newest first (the default command)
  show <id>                  one message in full
  resend <id>                e-mail a stored message to the firm again
  export <email>             every message from that address, as JSON (an access request)
  erase <email> [--yes]      delete every message from that address (an erasure request)`;

/** A command line that cannot be run; its message is the one line to show. */
export class UsageError extends Error {}

export const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;

/** Loose on purpose: the stored addresses passed the form's validation; this only refuses what cannot be one. */
const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function limitFrom(value: string): number {
  const limit = Number(value);
  if (!/^\d+$/.test(value) || limit < 1 || limit > MAX_LIMIT) {
    throw new UsageError(`--limit takes a whole number from 1 to ${MAX_LIMIT}, not "${value}".`);
  }
  return limit;
}

function statusFrom(value: string): MessageStatus {
  const status = MESSAGE_STATUSES.find((known) => known === value);
  if (!status) throw new UsageError(`--status takes ${MESSAGE_STATUSES.join(', ')}, not "${value}".`);
  return status;
}

function addressFrom(value: string): string {
  // The value is not repeated: an address is personal data, and this line goes to stderr.
  if (!ADDRESS.test(value))
    throw new UsageError('That is not an e-mail address: give the address the person wrote from, as name@domain.nl.');
  return value;
}

const OPTIONS_OF: Record<Command['name'], readonly string[]> = {
  list: ['--status', '--limit'],
  show: [],
  resend: [],
  export: [],
  erase: ['--yes'],
};
const TAKES_VALUE = new Set(['--status', '--limit', '--stage']);

export function parseArguments(argv: readonly string[]): Invocation {
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    if (!argument.startsWith('--')) {
      positional.push(argument);
      continue;
    }
    if (!TAKES_VALUE.has(argument) && argument !== '--yes') throw new UsageError(`Unknown option ${argument}.\n${USAGE}`);
    if (options.has(argument)) throw new UsageError(`${argument} is given twice.`);
    if (!TAKES_VALUE.has(argument)) {
      options.set(argument, '');
      continue;
    }
    const value = argv[index + 1];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${argument} needs a value.`);
    options.set(argument, value);
    index += 1;
  }

  const [name = 'list', ...operands] = positional;
  if (!(name in OPTIONS_OF)) throw new UsageError(`Unknown command "${name}".\n${USAGE}`);
  const commandName = name as Command['name'];
  for (const option of options.keys()) {
    if (option !== '--stage' && !OPTIONS_OF[commandName].includes(option))
      throw new UsageError(`${option} does not go with ${commandName}.`);
  }
  const wanted = commandName === 'list' ? 0 : 1;
  if (operands.length !== wanted) {
    const what = commandName === 'show' || commandName === 'resend' ? 'a message id' : 'an e-mail address';
    throw new UsageError(
      wanted === 0
        ? `list takes no ${operands.length === 1 ? 'argument' : 'arguments'}.\n${USAGE}`
        : `${commandName} takes ${what}.\n${USAGE}`,
    );
  }
  const operand = operands[0]!;
  const stage = options.get('--stage');

  const command: Command = (() => {
    switch (commandName) {
      case 'list': {
        const status = options.get('--status');
        const limit = options.get('--limit');
        return {
          name: 'list',
          status: status === undefined ? undefined : statusFrom(status),
          limit: limit === undefined ? DEFAULT_LIMIT : limitFrom(limit),
        };
      }
      case 'show':
      case 'resend':
        return { name: commandName, id: operand };
      case 'export':
        return { name: 'export', address: addressFrom(operand) };
      case 'erase':
        return { name: 'erase', address: addressFrom(operand), yes: options.has('--yes') };
    }
  })();
  return stage === undefined ? { command } : { command, stage };
}
