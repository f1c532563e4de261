/** The command line of `npm run messages`, read with node:util's parseArgs into one command or refused with a usage line. No I/O. */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { MESSAGE_STATUSES, type MessageStatus } from '@site/core/table';
import { timeSpecOf, TIME_FORMS, type TimeSpec } from './period';

export type Command =
  | { name: 'list'; status?: MessageStatus; limit: number }
  | { name: 'show'; id: string }
  | { name: 'resend'; id: string }
  | { name: 'export'; address: string; out?: string }
  | { name: 'erase'; address: string; yes: boolean }
  | { name: 'restore-from'; table: string; apply: boolean }
  | { name: 'retention'; apply: boolean }
  | { name: 'wave'; since?: TimeSpec; until?: TimeSpec }
  | { name: 'purge'; since?: TimeSpec; until?: TimeSpec; fingerprint?: string; minScore?: number; confirm: boolean }
  | { name: 'release'; id: string };

export interface Invocation {
  command: Command;
  /** Find the table through this stage's stack, whatever else is configured. */
  stage?: string;
}

export const USAGE = `Usage: npm run messages -- <command> [--stage <stage>]
  list [--status ${MESSAGE_STATUSES.join('|')}] [--limit N]   the latest messages, newest first (the default command)
  show <id>                  one message in full
  resend <id>                e-mail a stored message to the firm again
  export <email> [--out <name>]
                             an access request's answer: <name>.txt to read and <name>.json, every message
                             from that address and what names it (default name: inzage-<date>)
  erase <email> [--yes]      delete every message from that address (an erasure request)
  restore-from <table> [--apply]
                             put back the messages a restored copy of the table holds and the table lost
  retention [--apply]        bring stored messages to a shorter retentionDays (a dry run without --apply)
  wave [--since <time>] [--until <time>]
                             messages per status, score, signal and text in a period (the last day by default)
  purge [--fingerprint <f>] [--min-score N] [--since <time>] [--until <time>] [--confirm]
                             mark those held messages as spam, to expire after spamRetentionDays (a dry run without --confirm)
  release <id>               e-mail one held message to the firm now
  <time> is ${TIME_FORMS}.`;

/** A command line that cannot be run; its message is the one line to show. */
export class UsageError extends Error {}

export const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;

/** DynamoDB's rule for a table name. */
const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;

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

function timeFrom(option: string, value: string): TimeSpec {
  const spec = timeSpecOf(value);
  if (!spec) throw new UsageError(`--${option} takes ${TIME_FORMS}, not "${value}".`);
  return spec;
}

/** wave shows fingerprints shortened; purge takes at least 8 of their hex digits, enough that one never names two texts by chance. */
function fingerprintFrom(value: string): string {
  if (!/^[0-9a-f]{8,32}$/i.test(value)) {
    throw new UsageError(`--fingerprint takes a fingerprint as wave shows it (8 to 32 hex digits), not "${value}".`);
  }
  return value.toLowerCase();
}

function minScoreFrom(value: string): number {
  if (!/^\d{1,3}$/.test(value)) throw new UsageError(`--min-score takes a whole number, not "${value}".`);
  return Number(value);
}

function addressFrom(value: string): string {
  // The value is not repeated: an address is personal data, and this line goes to stderr.
  if (!ADDRESS.test(value))
    throw new UsageError('That is not an e-mail address: give the address the person wrote from, as name@domain.nl.');
  return value;
}

function tableFrom(value: string): string {
  if (!TABLE_NAME.test(value)) {
    throw new UsageError(`"${value}" is not a DynamoDB table name: 3 to 255 letters, digits, _, - and . (the name the restore created).`);
  }
  return value;
}

/** The options, as node:util's parseArgs reads them. */
const OPTIONS = {
  status: { type: 'string' },
  limit: { type: 'string' },
  stage: { type: 'string' },
  yes: { type: 'boolean' },
  apply: { type: 'boolean' },
  since: { type: 'string' },
  until: { type: 'string' },
  fingerprint: { type: 'string' },
  'min-score': { type: 'string' },
  confirm: { type: 'boolean' },
  out: { type: 'string' },
} as const satisfies ParseArgsOptionsConfig;

type OptionName = keyof typeof OPTIONS;

/** The options each command takes, besides --stage, which every command takes. */
const OPTIONS_OF: Record<Command['name'], readonly OptionName[]> = {
  list: ['status', 'limit'],
  show: [],
  resend: [],
  export: ['out'],
  erase: ['yes'],
  'restore-from': ['apply'],
  retention: ['apply'],
  wave: ['since', 'until'],
  purge: ['fingerprint', 'min-score', 'since', 'until', 'confirm'],
  release: [],
};

/** The commands that take no operand. */
const WITHOUT_OPERAND = ['list', 'retention', 'wave', 'purge'] as const satisfies readonly Command['name'][];
const takesNoOperand = (name: Command['name']): name is (typeof WITHOUT_OPERAND)[number] =>
  (WITHOUT_OPERAND as readonly string[]).includes(name);

/** What each command's one operand is, for the line that asks for it. */
const OPERAND: Record<Exclude<Command['name'], (typeof WITHOUT_OPERAND)[number]>, string> = {
  show: 'a message id',
  resend: 'a message id',
  export: 'an e-mail address',
  erase: 'an e-mail address',
  'restore-from': 'the name of the restored table',
  release: 'a message id',
};

const isOptionName = (name: string): name is OptionName => Object.hasOwn(OPTIONS, name);

/**
 * The options given, each checked: known, given once, with a value when it takes one. The
 * parse is not strict, so that each refusal is worded here, by the option's name, instead
 * of in parseArgs' own words.
 */
function optionsGiven(tokens: ReturnType<typeof parseArgs>['tokens'] = []): Map<OptionName, string | true> {
  const given = new Map<OptionName, string | true>();
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const { name, rawName, value } = token;
    if (!isOptionName(name)) throw new UsageError(`Unknown option ${rawName}.\n${USAGE}`);
    if (given.has(name)) throw new UsageError(`${rawName} is given twice.`);
    if (OPTIONS[name].type === 'boolean') {
      if (value !== undefined) throw new UsageError(`${rawName} takes no value.`);
      given.set(name, true);
    } else {
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${rawName} needs a value.`);
      given.set(name, value);
    }
  }
  return given;
}

/** The command named first, checked against the options given and the operands it takes. */
function commandNameOf(positionals: readonly string[], options: ReadonlyMap<OptionName, unknown>): Command['name'] {
  const [name = 'list', ...operands] = positionals;
  if (!Object.hasOwn(OPTIONS_OF, name)) throw new UsageError(`Unknown command "${name}".\n${USAGE}`);
  const commandName = name as Command['name'];
  for (const option of options.keys()) {
    if (option !== 'stage' && !OPTIONS_OF[commandName].includes(option))
      throw new UsageError(`--${option} does not go with ${commandName}.`);
  }
  const wanted = takesNoOperand(commandName) ? 0 : 1;
  if (operands.length !== wanted) {
    const what = takesNoOperand(commandName) ? '' : OPERAND[commandName];
    throw new UsageError(
      wanted === 0
        ? `${commandName} takes no ${operands.length === 1 ? 'argument' : 'arguments'}.\n${USAGE}`
        : `${commandName} takes ${what}.\n${USAGE}`,
    );
  }
  return commandName;
}

/** A purge names its wave by text or by score: a period alone would take the people a budget held with it. */
function purgeCommand(
  given: { since?: TimeSpec; until?: TimeSpec; confirm: boolean },
  fingerprint: string | undefined,
  minScore: string | undefined,
): Command {
  if (fingerprint === undefined && minScore === undefined) {
    throw new UsageError('purge takes --fingerprint, --min-score or both: a period alone would mark the people a budget held too.');
  }
  return {
    name: 'purge',
    ...given,
    ...(fingerprint !== undefined && { fingerprint: fingerprintFrom(fingerprint) }),
    ...(minScore !== undefined && { minScore: minScoreFrom(minScore) }),
  };
}

export function parseArguments(argv: readonly string[]): Invocation {
  const { positionals, tokens } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const options = optionsGiven(tokens);
  const name = commandNameOf(positionals, options);
  const operand = positionals[1]!;
  const text = (option: OptionName) => options.get(option) as string | undefined;
  const period = () => {
    const [since, until] = (['since', 'until'] as const).map((option) => {
      const value = text(option);
      return value === undefined ? undefined : timeFrom(option, value);
    });
    return { ...(since && { since }), ...(until && { until }) };
  };

  const command: Command = (() => {
    switch (name) {
      case 'list': {
        const status = text('status');
        const limit = text('limit');
        return {
          name: 'list',
          status: status === undefined ? undefined : statusFrom(status),
          limit: limit === undefined ? DEFAULT_LIMIT : limitFrom(limit),
        };
      }
      case 'show':
      case 'resend':
      case 'release':
        return { name, id: operand };
      case 'export': {
        const out = text('out');
        return out === undefined
          ? { name: 'export', address: addressFrom(operand) }
          : { name: 'export', address: addressFrom(operand), out };
      }
      case 'erase':
        return { name: 'erase', address: addressFrom(operand), yes: options.has('yes') };
      case 'restore-from':
        return { name: 'restore-from', table: tableFrom(operand), apply: options.has('apply') };
      case 'retention':
        return { name: 'retention', apply: options.has('apply') };
      case 'wave':
        return { name: 'wave', ...period() };
      case 'purge':
        return purgeCommand({ ...period(), confirm: options.has('confirm') }, text('fingerprint'), text('min-score'));
    }
  })();
  const stage = text('stage');
  return stage === undefined ? { command } : { command, stage };
}
