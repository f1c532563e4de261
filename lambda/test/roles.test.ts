/**
 * Each function under its deployed role, as AWS evaluates it (the IAM gates in front of the
 * stand-ins), and under the same role with one grant taken away: what a deploy that lost the
 * grant would do. Each function runs the work that uses all of its role: the contact function
 * a message e-mailed and one refused after it reserved its Idempotency-Key, the retry job a
 * message to re-send and a digest of a held one, the delivery-event consumer a new outcome and
 * a repeated one. Without any one grant, the gate refuses its action by name, and the work ends
 * otherwise than it does with the whole role. The retry job's digest is the case AWS met: a
 * role without its grants on the digest's state.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { IDEMPOTENCY_HEADER, HONEYPOT_FIELD } from '@site/core/contract';
import type { FunctionName } from '@site/core/names';
import type { DeployedRoles, PolicyStatement } from '@site/core/node/deployed-roles';
import type { GateCall } from '@site/emulators/iam-gate';
import { readEmfLine } from '@site/testing/emf';
import { captureLogs, type CapturedLogs } from '@site/testing/logs';
import { answer, contactEvent, heldEvent, ownMessage, VALID_BODY } from '@site/testing/api-events';
import { sesEvent } from '@site/testing/ses-events';
import { TEST_ORIGIN_SECRET, TEST_VISITOR_LIMIT } from '@site/testing/test-values';
import '@site/testing/provided';
import { createContactHandler } from '../src/contact/contact-handler';
import { createDeliveryEventHandler } from '../src/delivery-events/delivery-event-handler';
import { createRetryHandler } from '../src/retry/retry';
import { heldLinkKey, heldLinkToken } from '../src/held/held-link';
import { startFunctionAws, type FunctionAws } from './support/contact-stack';

const ROLES = inject('deployedRoles');

const list = (value: string | string[]) => (Array.isArray(value) ? value : [value]);

/** The roles with statement `index` of the function's role taken away. */
function without(fn: FunctionName, index: number): DeployedRoles {
  let seen = -1;
  const policies = ROLES.principals[fn]!.map(({ name, policy }) => ({
    name,
    policy: { ...policy, Statement: policy.Statement.filter(() => (seen += 1) !== index) },
  }));
  return { ...ROLES, principals: { ...ROLES.principals, [fn]: policies } };
}

/** Each statement of the function's role that its code's calls need (the kept ones aside), by its place. */
function statementsOf(fn: FunctionName): { index: number; statement: PolicyStatement }[] {
  const kept = new Set((ROLES.keptGrants[fn] ?? []).flatMap((grant) => grant.actions));
  return ROLES.principals[fn]!.flatMap(({ policy }) => policy.Statement)
    .map((statement, index) => ({ index, statement }))
    .filter(({ statement }) => list(statement.Action).some((action) => !kept.has(action)));
}

interface Run {
  aws: FunctionAws;
  denied: GateCall[];
  logs: CapturedLogs;
}

const runs: Run[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) {
    await run.aws.close();
    run.logs.restore();
  }
});

/** The stand-ins with these roles, and every call their gates refused. */
async function under(roles: DeployedRoles): Promise<Run> {
  const denied: GateCall[] = [];
  const logs = captureLogs();
  const aws = await startFunctionAws({ iam: { roles, record: (call) => !call.allowed && denied.push(call) } });
  const run = { aws, denied, logs };
  runs.push(run);
  return run;
}

/**
 * The contact function's work: one message e-mailed; one from a visitor over the limit, whose
 * key it reserved and takes back; and the firm's page of held messages opened from a digest's link.
 */
async function contactWork({ aws }: Run): Promise<unknown> {
  const handler = createContactHandler({ config: aws.config, clients: aws.clients });
  const post = async (viewer: string, headers: Record<string, string> = {}) =>
    answer(await handler(contactEvent({ body: ownMessage(), viewer, headers: { 'content-type': 'application/json', ...headers } })))
      .statusCode;
  const statuses = [await post('192.0.2.10')];
  for (let i = 0; i < TEST_VISITOR_LIMIT.messages; i += 1) statuses.push(await post('192.0.2.20'));
  statuses.push(await post('192.0.2.20', { [IDEMPOTENCY_HEADER]: randomUUID() }));
  const reservations = (await aws.items()).filter((item) => String(item.id).startsWith('idempotency#')).length;
  const held = await handler(heldEvent({ token: heldLinkToken(heldLinkKey(TEST_ORIGIN_SECRET), new Date()) }));
  return { statuses, emails: (await aws.sentEmails()).length, reservations, heldPage: held.statusCode };
}

/** The retry job's work: a message SES refused the first time, and a held one for the digest. */
async function retryWork({ aws }: Run): Promise<unknown> {
  const contact = createContactHandler({ config: aws.config, clients: aws.clients });
  await aws.stopSes();
  try {
    await contact(contactEvent({ body: ownMessage(), viewer: '192.0.2.30' }));
  } finally {
    await aws.startSes();
  }
  await contact(contactEvent({ body: ownMessage({ [HONEYPOT_FIELD]: 'https://spam.example' }), viewer: '192.0.2.31' }));
  const later = new Date(Date.now() + 10 * 60_000);
  const run = createRetryHandler({ config: aws.config, clients: aws.clientsOf('retry-undelivered'), clock: () => later });
  // A run that fails (its read of the backlog refused) is an outcome too: RetryFunctionErrors'.
  const summary = await run().catch((error: Error) => ({ failed: error.message }));
  return { summary, emails: (await aws.sentEmails()).length };
}

/** The consumer's work: a delivery reported, then reported again (told apart by reading the message). */
async function consumerWork({ aws }: Run): Promise<unknown> {
  const contact = createContactHandler({ config: aws.config, clients: aws.clients });
  const { id } = answer(await contact(contactEvent({ body: VALID_BODY, viewer: '192.0.2.40' }))).json;
  const stored = await aws.message(id!);
  const consume = createDeliveryEventHandler({ config: aws.config, clients: aws.clientsOf('record-delivery-event') });
  const event = sesEvent('Email Delivered', { messageId: id!, attempt: 1, sesMessageId: stored!.sesMessageId! });
  const outcomes: string[] = [];
  for (let i = 0; i < 2; i += 1) {
    outcomes.push(
      await consume(event).then(
        () => 'done',
        (error: Error) => error.message,
      ),
    );
  }
  return { outcomes, status: (await aws.message(id!))?.status };
}

/** The functions whose code calls AWS; the outside check calls nobody but the site (below). */
type CallingFunction = Exclude<FunctionName, 'outside-check'>;

const WORK: Record<CallingFunction, (run: Run) => Promise<unknown>> = {
  'send-contact-email': contactWork,
  'retry-undelivered': retryWork,
  'record-delivery-event': consumerWork,
};

describe('outside-check', () => {
  it('is granted only the writes of its own log, which the Lambda runtime makes, each kept with that reason: its code calls no AWS API', () => {
    expect(statementsOf('outside-check')).toEqual([]);
    const granted = ROLES.principals['outside-check']!.flatMap(({ policy }) => policy.Statement).flatMap((statement) =>
      list(statement.Action),
    );
    expect(granted.sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
    expect(ROLES.keptGrants['outside-check']).toEqual([{ actions: granted, reason: expect.stringContaining('Lambda runtime') }]);
  });
});

describe.each(Object.keys(WORK) as CallingFunction[])('%s', (fn) => {
  it('does all of its work under its deployed role, refused nothing', async () => {
    const run = await under(ROLES);
    await WORK[fn](run);
    expect(run.denied).toEqual([]);
  });

  it.each(statementsOf(fn).map(({ index, statement }) => [list(statement.Action).join(', '), index] as const))(
    'without its grant of %s, is refused that action by name, and its work ends otherwise',
    async (_actions, index) => {
      const whole = await WORK[fn](await under(ROLES));
      const run = await under(without(fn, index));
      const ended = await WORK[fn](run);
      const statement = statementsOf(fn).find((found) => found.index === index)!.statement;
      const refused = run.denied.filter((call) => call.principal === fn).map((call) => call.action);
      expect(
        refused.some((action) => list(statement.Action).includes(action)),
        `refused: ${refused.join(', ')}`,
      ).toBe(true);
      expect(ended).not.toEqual(whole);
    },
  );
});

describe('the retry job without its grants on the digest’s state, as AWS ran it before they were added', () => {
  it('reports the digest failed with AWS’s AccessDeniedException, and still counts the backlog and what was not delivered', async () => {
    const digestGrant = statementsOf('retry-undelivered').find(({ statement }) =>
      JSON.stringify(statement.Condition ?? {}).includes('digest#'),
    );
    expect(digestGrant).toBeDefined();
    const run = await under(without('retry-undelivered', digestGrant!.index));
    const { summary } = (await retryWork(run)) as { summary: Record<string, unknown> };
    expect(summary).toMatchObject({ digested: 0, digestError: 'AccessDeniedException', delivered: 1 });
    expect(run.denied.map((call) => call.action)).toContain('dynamodb:GetItem');
    const counted = Object.fromEntries(
      run.logs
        .metricLines()
        .flatMap(readEmfLine)
        .map((point) => [point.metric, point.values[0]]),
    );
    expect(counted).toMatchObject({ DigestFailed: 1, RetryBacklog: 0, NotDelivered: 0 });
  });
});
