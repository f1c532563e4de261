/**
 * What each function's role refuses in DynamoDB, decided by an IAM policy simulator over the
 * roles as deployed (deployed-roles.ts, the same evaluation the IAM gates in front of the
 * stand-ins make). That each grant is used is test/grants' check, over every call the suite
 * made; this is the other edge: a grant scoped to some items or one index reaches no further.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { rolesFor, type DeployedRoles } from '@site/core/node/deployed-roles';
import { DIGEST_STATE_ID, IDEMPOTENCY_PREFIX } from '@site/core/table';
import { decideCall, type Decision } from '@site/emulators/iam-gate';
import { deployedRolesOf } from '../lib/deployed-roles';
import { synth, TEST_ADDRESSES } from './synth';

const TABLE = 'consultancy-site-test-Messages';
let roles: DeployedRoles;
let table: string;

beforeAll(() => {
  roles = rolesFor(deployedRolesOf(synth()), {
    table: TABLE,
    senderAddress: TEST_ADDRESSES.senderAddress,
    configurationSet: 'consultancy-site-test',
  });
  table = `arn:aws:dynamodb:${roles.region}:${roles.account}:table/${TABLE}`;
});

const MESSAGE_ID = '01JDMESSAGE0000000000000000';
const onItem = (fn: string, action: string, key: string, resource = table): Promise<Decision> =>
  decideCall(roles, fn, { action: `dynamodb:${action}`, resource, context: { 'dynamodb:LeadingKeys': [key] } });
const onIndex = (fn: string, action: string, index: string): Promise<Decision> =>
  decideCall(roles, fn, { action: `dynamodb:${action}`, resource: `${table}/index/${index}`, context: {} });

describe('send-contact-email', () => {
  it('stores, reads and updates messages, and deletes only its own reservations of an Idempotency-Key', async () => {
    for (const action of ['PutItem', 'GetItem', 'UpdateItem'])
      expect(await onItem('send-contact-email', action, MESSAGE_ID)).toBe('Allowed');
    expect(await onItem('send-contact-email', 'DeleteItem', `${IDEMPOTENCY_PREFIX}0d5f2c1e-8a41-4d0e-9b3a-6f1c2e7d9a10`)).toBe('Allowed');
    expect(await onItem('send-contact-email', 'DeleteItem', MESSAGE_ID)).toBe('ImplicitlyDenied');
    expect(await onItem('send-contact-email', 'DeleteItem', DIGEST_STATE_ID)).toBe('ImplicitlyDenied');
  });

  it('queries the status index only (the page of held messages), and scans nothing', async () => {
    expect(await onIndex('send-contact-email', 'Query', 'byStatus')).toBe('Allowed');
    expect(await onIndex('send-contact-email', 'Query', 'byEmail')).toBe('ImplicitlyDenied');
    expect(await onItem('send-contact-email', 'Scan', MESSAGE_ID)).toBe('ImplicitlyDenied');
  });
});

describe('retry-undelivered', () => {
  it('reads and claims the digest’s state, and no message that way', async () => {
    for (const action of ['GetItem', 'PutItem']) {
      expect(await onItem('retry-undelivered', action, DIGEST_STATE_ID)).toBe('Allowed');
      expect(await onItem('retry-undelivered', action, MESSAGE_ID)).toBe('ImplicitlyDenied');
    }
  });

  it('queries the status index only, updates messages, and deletes nothing', async () => {
    expect(await onIndex('retry-undelivered', 'Query', 'byStatus')).toBe('Allowed');
    expect(await onIndex('retry-undelivered', 'Query', 'byEmail')).toBe('ImplicitlyDenied');
    expect(await onItem('retry-undelivered', 'UpdateItem', MESSAGE_ID)).toBe('Allowed');
    expect(await onItem('retry-undelivered', 'DeleteItem', MESSAGE_ID)).toBe('ImplicitlyDenied');
  });
});

describe('record-delivery-event', () => {
  it('updates a message and reads it, and writes, deletes, queries and scans nothing', async () => {
    for (const action of ['UpdateItem', 'GetItem']) expect(await onItem('record-delivery-event', action, MESSAGE_ID)).toBe('Allowed');
    for (const action of ['PutItem', 'DeleteItem', 'Scan'])
      expect(await onItem('record-delivery-event', action, MESSAGE_ID)).toBe('ImplicitlyDenied');
    expect(await onIndex('record-delivery-event', 'Query', 'byStatus')).toBe('ImplicitlyDenied');
  });
});

describe('every function', () => {
  it('reaches no other table', async () => {
    const other = `arn:aws:dynamodb:${roles.region}:${roles.account}:table/consultancy-site-prod-Messages`;
    for (const fn of ['send-contact-email', 'retry-undelivered', 'record-delivery-event']) {
      expect(await onItem(fn, 'UpdateItem', MESSAGE_ID, other), fn).toBe('ImplicitlyDenied');
    }
  });
});
