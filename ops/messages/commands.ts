/**
 * The commands of `npm run messages`. Personal data goes to stdout only, which is what the
 * operator asked for; stderr (prompts, notes, errors) never holds a name, address or message.
 */
import { createInterface } from 'node:readline/promises';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { ConfigError, retentionDaysFrom } from '@site/core/node/deploy-config';
import type { StoredMessage } from '@site/core/table';
import { readMailRoute } from '@site/lambda/config';
import { deliver } from '@site/lambda/delivery';
import { mailRoute, type MailRoute } from '@site/lambda/mail';
import { deleteIdempotencyRecord, type IdempotencyRecord } from '@site/lambda/idempotency-records';
import { deleteMessage, getIdempotencyRecord, listByEmail, listLatest } from './queries';
import { getMessage, leaseForRetry } from '@site/lambda/store';
import type { Command } from './arguments';
import { CommandError } from './errors';
import { erasePreview, exportJson, listTable, messageText, type Found } from './render';
import { restoreFrom } from './restore';
import { bringToRetention, retentionReport } from './retention';
import type { Target } from './target';

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

/** Every message from the address, and the idempotency records they were claimed under (while those last). */
async function findByEmail(target: Target, address: string): Promise<Found> {
  const messages = await listByEmail(target.table, address);
  const records = await Promise.all(messages.map((message) => getIdempotencyRecord(target.table, message)));
  return { messages, idempotencyRecords: records.filter((record): record is IdempotencyRecord => record !== undefined) };
}

/**
 * Deletes one message and, first, its idempotency record: its hash is keyed, but it still
 * links the message's id to its content, and once the message is gone nothing would find it.
 */
async function eraseMessage(target: Target, message: StoredMessage): Promise<{ message: boolean; record: boolean }> {
  const record =
    message.idempotencyKey !== undefined &&
    (await deleteIdempotencyRecord(target.table, { key: message.idempotencyKey, messageId: message.id }));
  return { message: await deleteMessage(target.table, message.id), record };
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
  let deleted = 0;
  let records = 0;
  try {
    for (const message of messages) {
      const erased = await eraseMessage(target, message);
      deleted += Number(erased.message);
      records += Number(erased.record);
    }
  } catch (error) {
    console.log(`Deleted ${deleted} of ${messages.length} before the error below; run erase again for the rest.`);
    throw error;
  }
  console.log(`Deleted ${plural(deleted, 'message')}${records > 0 ? ` and ${plural(records, 'idempotency record')}` : ''}.`);
  const arrived = await listByEmail(target.table, address);
  if (arrived.length > 0) console.error(`${plural(arrived.length, 'more message')} arrived meanwhile; run erase again.`);
}

/** cdk.json's retentionDays, which the site's privacy statement quotes; a wrong one is the operator's to fix. */
function retentionDaysOfDeploy(): number {
  try {
    return retentionDaysFrom(CDK_JSON_CONTEXT);
  } catch (error) {
    if (error instanceof ConfigError) throw new CommandError(error.message);
    throw error;
  }
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
      console.log(exportJson(command.address, await findByEmail(target, command.address), new Date()));
      return;
    case 'erase':
      return erase(target, command.address, command.yes);
    case 'restore-from':
      return restoreFrom(target, command, new Date());
    case 'retention': {
      const days = retentionDaysOfDeploy();
      const counts = await bringToRetention(target.table, days, command.apply, new Date());
      console.error(retentionReport(counts, days, target.table.name, command.apply));
      return;
    }
  }
}
