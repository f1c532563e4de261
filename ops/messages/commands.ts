/**
 * The commands of `npm run messages`. Personal data goes to stdout only, which is what the
 * operator asked for; stderr (prompts, notes, errors) never holds a name, address or message.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { ConfigError, retentionDaysFrom, spamRetentionDaysFrom, statedSettingsFrom } from '@site/core/node/deploy-config';
import type { StoredMessage } from '@site/core/table';
import { readMailRoute } from '@site/lambda/config';
import { deliver } from '@site/lambda/delivery';
import { mailRoute, type MailRoute } from '@site/lambda/mail';
import { IDEMPOTENCY_PREFIX } from '@site/core/table';
import { deleteIdempotencyRecord } from '@site/lambda/idempotency-records';
import {
  deleteEmptyCounter,
  deleteStampRecord,
  deleteMessage,
  findLinkedRecords,
  forgetCountedMessage,
  listByEmail,
  listLatest,
  type LinkedRecords,
} from './queries';
import { getMessage, leaseForRetry } from '@site/lambda/store';
import type { Command } from './arguments';
import { CommandError } from './errors';
import { accessDocument } from './access-document';
import { purge, purgeReport } from './purge';
import { release } from './release';
import { erasePreview, exportJson, listTable, messageText, type Found } from './render';
import { restoreFrom } from './restore';
import { bringToRetention, retentionReport } from './retention';
import type { Target } from './target';
import { wave } from './wave';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

async function messageById(target: Target, id: string): Promise<StoredMessage> {
  const message = await getMessage(target.table, id);
  if (!message) throw new CommandError(`No message with id ${id} in ${target.table.name}.`);
  return message;
}

/**
 * Where resend sends: MAIL_FROM and MAIL_TO if set, else the target's own (the local stack's
 * addresses, or cdk.json's senderAddress and contactRecipient when the operator keeps them
 * there), through SES_CONFIGURATION_SET or the stage's configuration set, so that the new
 * e-mail's delivery events come back to the message as the functions' do.
 */
function resendRoute(env: NodeJS.ProcessEnv, target: Target): MailRoute {
  let route: ReturnType<typeof readMailRoute>;
  try {
    route = readMailRoute({
      MAIL_FROM: env.MAIL_FROM || target.mailFallback.from,
      MAIL_TO: env.MAIL_TO || target.mailFallback.to,
    });
  } catch (error) {
    throw new CommandError(
      `${(error as Error).message} Set MAIL_FROM and MAIL_TO to the stage's senderAddress and contactRecipient (or keep those in cdk.json).`,
    );
  }
  const configurationSet = env.SES_CONFIGURATION_SET || target.mailFallback.configurationSet;
  if (!configurationSet) {
    throw new CommandError(
      'No stage to send through: pass --stage <stage>, or set SES_CONFIGURATION_SET to the stage’s configuration set.',
    );
  }
  return mailRoute({ ...route, configurationSet });
}

/** Asks on stderr; true only for a yes. A closed stdin is a no. */
async function confirm(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string>((resolve) => {
      prompt.once('close', () => resolve(''));
      prompt.question(question).then(resolve, () => resolve(''));
    });
    return /^(y|yes|j|ja)$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

async function list(target: Target, command: Extract<Command, { name: 'list' }>): Promise<void> {
  const messages = await listLatest(target.table, command.limit, command.status);
  console.log(
    messages.length === 0 ? `No ${command.status ? `${command.status} ` : ''}messages in ${target.table.name}.` : listTable(messages),
  );
}

async function resend(target: Target, id: string, env: NodeJS.ProcessEnv): Promise<void> {
  const route = resendRoute(env, target);
  const message = await messageById(target, id);
  const now = new Date();
  // A 'received' message is the retry job's too: the same lease keeps the two from both sending it.
  if (message.status === 'received' && !(await leaseForRetry(target.table, message, now))) {
    throw new CommandError(`Message ${id} is being delivered by the retry job right now; look again with show ${id} in a minute.`);
  }
  // A failed message stays failed if SES refuses again; any other goes back to the retry job.
  const setup = { table: target.table, ses: target.ses, route, fields: CONTACT_FIELDS };
  const result = await deliver(setup, message, { at: now, isLast: message.status === 'failed' });
  if (result.outcome !== 'emailed') {
    const status = result.outcome === 'failed' ? "stays 'failed'" : "is 'received': the retry job will try again";
    throw new CommandError(`SES ${target.sesWhere} did not accept the e-mail (${result.error}); message ${id} ${status}.`);
  }
  console.log(
    `E-mailed message ${id} to ${route.to.join(', ')}; SES will report its delivery (npm run messages -- show ${id} shows the outcome).`,
  );
  if (result.recordError) {
    console.error(
      `The e-mail went out, but its status could not be recorded (${result.recordError}): the retry job may send it once more.`,
    );
  }
}

/** `a`, `a and b`, `a, b and c`. */
const andList = (items: readonly string[]) =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** Every message from the address, and what else in the table names them: idempotency records, visitor counters. */
async function findByEmail(target: Target, address: string): Promise<Found> {
  const messages = await listByEmail(target.table, address);
  return { messages, ...(await findLinkedRecords(target.table, new Set(messages.map((message) => message.id)))) };
}

/** What an erasure took out: counts, for the line that says so. */
interface Erased {
  messages: number;
  records: number;
  /** Entries taken out of visitor counters, and counters deleted once they counted nothing. */
  entries: number;
  counters: number;
  stamps: number;
}

/**
 * Takes out everything that links to the messages, before the messages themselves: the
 * idempotency records (their hash is keyed, but each names a message and its content) and the
 * messages' entries in the visitor counters (a keyed hash of the person's network beside the
 * message's id), deleting a counter that then counts nothing. Stopped halfway, erase finds
 * the messages again and repeats it; the other way round, what is left would name messages
 * nobody can find any more.
 */
async function eraseLinked(target: Target, linked: LinkedRecords, erased: Erased): Promise<void> {
  for (const record of linked.idempotencyRecords) {
    const key = record.id.slice(IDEMPOTENCY_PREFIX.length);
    erased.records += Number(await deleteIdempotencyRecord(target.table, { key, messageId: record.messageId }));
  }
  for (const counter of linked.visitorCounters) {
    for (const messageId of counter.messageIds) erased.entries += Number(await forgetCountedMessage(target.table, counter.id, messageId));
    erased.counters += Number(await deleteEmptyCounter(target.table, counter.id));
  }
  for (const stamp of linked.stampRecords) erased.stamps += Number(await deleteStampRecord(target.table, stamp));
}

function erasedText({ messages, records, entries, counters, stamps }: Erased): string {
  const parts = [plural(messages, 'message')];
  if (records > 0) parts.push(plural(records, 'idempotency record'));
  if (entries > 0) {
    const emptied = counters > 0 ? ` (${plural(counters, 'counter')} deleted, counting nothing else)` : '';
    parts.push(`${entries} visitor counter ${entries === 1 ? 'entry' : 'entries'}${emptied}`);
  }
  if (stamps > 0) parts.push(plural(stamps, 'stamp record'));
  return `Deleted ${andList(parts)}.`;
}

async function erase(target: Target, address: string, yes: boolean): Promise<void> {
  const messages = await listByEmail(target.table, address);
  if (messages.length === 0) {
    console.log(`No messages from ${address} in ${target.table.name}.`);
    return;
  }
  console.log(`${plural(messages.length, 'message')} from ${address} in ${target.table.name}:\n${erasePreview(messages)}`);
  if (
    !yes &&
    !(await confirm(
      `Delete ${messages.length === 1 ? 'this message' : `these ${messages.length} messages`} for good? Type yes to delete: `,
    ))
  ) {
    throw new CommandError('Nothing deleted.');
  }
  const ids = new Set(messages.map((message) => message.id));
  const erased: Erased = { messages: 0, records: 0, entries: 0, counters: 0, stamps: 0 };
  try {
    await eraseLinked(target, await findLinkedRecords(target.table, ids), erased);
    for (const message of messages) erased.messages += Number(await deleteMessage(target.table, message.id));
  } catch (error) {
    console.log(`Deleted ${erased.messages} of ${messages.length} before the error below; run erase again for the rest.`);
    throw error;
  }
  console.log(erasedText(erased));
  const arrived = await listByEmail(target.table, address);
  if (arrived.length > 0) console.error(`${plural(arrived.length, 'more message')} arrived meanwhile; run erase again.`);
  const left = await findLinkedRecords(target.table, ids);
  if (left.idempotencyRecords.length + left.visitorCounters.length + left.stampRecords.length > 0) {
    console.error('Something in the table still names an erased message (it was written while erase ran); run erase again.');
  }
}

/** A setting of cdk.json, which the site's privacy statement quotes; a wrong one is the operator's to fix. */
function ofDeploy<T>(read: (context: Record<string, unknown>) => T): T {
  try {
    return read(CDK_JSON_CONTEXT);
  } catch (error) {
    if (error instanceof ConfigError) throw new CommandError(error.message);
    throw error;
  }
}

/**
 * An access request's answer: `<out>.txt`, the document the person reads, and `<out>.json`,
 * the same data for their own software. Never over files already there (an older answer, or
 * someone else's). Only the file names go to the terminal.
 */
async function exportFor(target: Target, address: string, out: string): Promise<void> {
  const files = { text: `${out}.txt`, json: `${out}.json` };
  const existing = Object.values(files).filter((file) => existsSync(file));
  if (existing.length > 0) {
    const verb = existing.length === 1 ? 'exists' : 'exist';
    throw new CommandError(
      `${existing.join(' and ')} ${verb} already: give --out another name, or delete ${existing.length === 1 ? 'it' : 'them'} first.`,
    );
  }
  const found = await findByEmail(target, address);
  const at = new Date();
  writeFileSync(files.json, `${exportJson(address, found, at)}\n`, { flag: 'wx' });
  writeFileSync(files.text, accessDocument({ address, found, at, facts: ofDeploy(statedSettingsFrom), jsonFile: basename(files.json) }), {
    flag: 'wx',
  });
  console.log(
    `Wrote ${files.text} (the answer to send, in Dutch) and ${files.json} (the same data as JSON, to attach): ` +
      `${plural(found.messages.length, 'message')}. Delete both once they are sent.`,
  );
}

export async function runCommand(command: Command, target: Target, env: NodeJS.ProcessEnv): Promise<void> {
  switch (command.name) {
    case 'list':
      return list(target, command);
    case 'show':
      console.log(messageText(await messageById(target, command.id)));
      return;
    case 'resend':
      return resend(target, command.id, env);
    case 'export':
      return exportFor(target, command.address, command.out ?? `inzage-${new Date().toISOString().slice(0, 10)}`);
    case 'erase':
      return erase(target, command.address, command.yes);
    case 'restore-from':
      return restoreFrom(target, command, new Date());
    case 'retention': {
      const days = ofDeploy(retentionDaysFrom);
      const counts = await bringToRetention(target.table, days, command.apply, new Date());
      console.error(retentionReport(counts, days, target.table.name, command.apply));
      return;
    }
    case 'wave':
      console.log(await wave(target.table, command, new Date()));
      return;
    case 'purge': {
      const run = { confirm: command.confirm, spamRetentionDays: ofDeploy(spamRetentionDaysFrom), now: new Date() };
      console.log(purgeReport(await purge(target.table, command, run), command, { ...run, table: target.table.name }));
      return;
    }
    case 'release':
      return release(target, command.id, resendRoute(env, target), new Date());
  }
}
