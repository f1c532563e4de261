/**
 * An access request and an erasure against what the contact function itself writes: messages
 * sent through the handler from an IPv4 address another visitor shares and from an IPv6
 * network, as JSON with an Idempotency-Key and as a form post, so the table holds their
 * idempotency records, their entries in the visitor counters and the record of the proof-of-work
 * stamp the script's message carried, beside the messages. `export`
 * lists all of it; after `erase`, a scan of the whole table finds nothing that names an erased
 * message, and the counters that count someone else's messages still count exactly those.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_CONTENT_TYPE, STAMP_FIELD } from '@site/core/contract';
import { createAwsClients } from '@site/lambda/aws';
import { readContactConfig } from '@site/lambda/config';
import type { ContactHandler } from '@site/lambda/contact-answer';
import { createContactHandler } from '@site/lambda/contact-handler';
import { newChallenge } from '@site/lambda/stamp';
import { budgetNetworks } from '@site/lambda/visitor-limit';
import { countedMessages } from '@site/lambda/visitor-counter';
import { contactEvent, VALID_BODY } from '@site/testing/api-events';
import { startLocalAws, type LocalAws } from '@site/testing/local-aws';
import { allStderr, runMessages, standInEnv } from './support/messages-cli';

let aws: LocalAws;
let handler: ContactHandler;
beforeAll(async () => {
  aws = await startLocalAws();
  handler = createContactHandler({
    config: readContactConfig(aws.lambdaEnv),
    clients: createAwsClients(aws.connectionsFor('send-contact-email')),
  });
});
afterAll(() => aws?.close());

const PERSON = 'Erik.Vergeet@voorbeeld.nl';
const SHARED_OFFICE = '198.51.100.200';

/** A stamp as the site's script makes it: the function's challenge, issued a minute ago, solved. */
async function stamp(viewer: string): Promise<string> {
  const network = budgetNetworks(`${viewer}:40000`)?.[0];
  const challenge = await newChallenge(readContactConfig(aws.lambdaEnv).stampKeys, network, new Date(Date.now() - 60_000));
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** A message sent through the handler as the site's script sends one (with its stamp), or as its form does without scripts. */
async function send(email: string, viewer: string, text: string, as: 'json' | 'form'): Promise<string> {
  const body = { ...VALID_BODY, email, message: text, ...(as === 'json' && { [STAMP_FIELD]: await stamp(viewer) }) };
  const event =
    as === 'json'
      ? contactEvent({ viewer, body, headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() } })
      : contactEvent({ viewer, body: new URLSearchParams(body).toString(), headers: { 'content-type': FORM_CONTENT_TYPE } });
  const result = await handler(event);
  expect(result.statusCode, JSON.stringify(result)).toBe(as === 'json' ? 200 : 303);
  const stored = (await aws.messages()).find((message) => message.message === text);
  return stored!.id;
}

/** Every id, attribute name and value in the table that holds one of `ids`. */
async function namesOf(ids: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const item of await aws.items()) {
    for (const [name, value] of Object.entries(item)) {
      const text = `${name}=${JSON.stringify(value)}`;
      if (ids.some((id) => text.includes(id))) found.push(`${String(item.id)}: ${text}`);
    }
  }
  return found;
}

async function exported(address: string) {
  const dir = mkdtempSync(join(tmpdir(), 'inzage-'));
  const run = await runMessages(['export', address, '--out', join(dir, 'inzage')], standInEnv(aws));
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  return {
    json: JSON.parse(readFileSync(join(dir, 'inzage.json'), 'utf8')) as Record<string, unknown[]>,
    text: readFileSync(join(dir, 'inzage.txt'), 'utf8'),
  };
}

describe('a person’s messages and everything that names them', () => {
  let theirs: string[];
  let colleague: string;

  beforeAll(async () => {
    theirs = [
      await send(PERSON, SHARED_OFFICE, 'Eerste bericht, vanaf kantoor.', 'json'),
      await send(PERSON.toLowerCase(), '2001:db8:7:8:1:2:3:4', 'Tweede bericht, thuis, zonder scripts.', 'form'),
    ];
    colleague = await send('collega@voorbeeld.nl', SHARED_OFFICE, 'Een collega op hetzelfde kantoor.', 'json');
  });

  it('are all in the export: the messages, their idempotency records, the visitor counters that count them and their stamps', async () => {
    const { json, text } = await exported(PERSON);
    expect((json.messages as { id: string }[]).map((message) => message.id)).toEqual(theirs);
    expect((json.idempotencyRecords as { messageId: string }[]).map((record) => record.messageId).sort()).toEqual([...theirs].sort());
    // The IPv4 office, and the IPv6 /64 and /48 of home.
    const counters = json.visitorCounters as { messageIds: string[]; messageCount: number }[];
    expect(counters).toHaveLength(3);
    expect(counters.flatMap((counter) => counter.messageIds).sort()).toEqual([theirs[0], theirs[1], theirs[1]].sort());
    expect((json.stampRecords as { messageId: string }[]).map((record) => record.messageId)).toEqual([theirs[0]]);
    expect(JSON.stringify(json)).not.toContain(colleague);
    expect(text).toContain('Bij uw berichten: 3.');
    expect(text).toContain('Bij uw berichten: 2.');
    expect(text).toContain('De beoordeling op spam');
    expect(text).toContain('Gebruik van het rekenwerk bij uw berichten: 1.');
    // Each message's score, in Dutch words, beside it; what cannot be linked to the person said so.
    expect(text).toMatch(/Beoordeling op spam: +score \d/);
    expect(text.replace(/\s+/g, ' ')).toContain('We kunnen ze niet aan u koppelen');
  });

  it('are gone after erase: nothing in the table names an erased message, and shared counters still count only the rest', async () => {
    const before = (await aws.items()).filter((item) => String(item.id).startsWith('visitor#'));
    const { code, stdout } = await runMessages(['erase', PERSON, '--yes'], standInEnv(aws));
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe(
      'Deleted 2 messages, 2 idempotency records, 3 visitor counter entries (2 counters deleted, counting nothing else) and 1 stamp record.',
    );

    expect(await namesOf(theirs)).toEqual([]);
    const counters = (await aws.items()).filter((item) => String(item.id).startsWith('visitor#'));
    expect(counters).toHaveLength(before.length - 2);
    for (const counter of counters) expect(counter.messageCount).toBe(countedMessages(counter).length);
    const office = counters.find((counter) => countedMessages(counter).some((entry) => entry.messageId === colleague));
    expect(office).toMatchObject({ messageCount: 1 });
    expect(await aws.message(colleague)).toBeDefined();
    expect((await exported(PERSON)).json).toMatchObject({ messages: [], idempotencyRecords: [], visitorCounters: [], stampRecords: [] });
  });

  it('never writes the person’s address or text to stderr', () => {
    expect(allStderr()).not.toMatch(/vergeet|bericht/i);
  });
});
