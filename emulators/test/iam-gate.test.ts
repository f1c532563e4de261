/**
 * The IAM gate in front of the stand-ins, with the AWS SDK's own clients: a call a policy
 * allows reaches the stand-in unchanged; one it does not is answered as AWS answers it, so the
 * SDK throws AWS's error (AccessDeniedException from DynamoDB, AccessDenied from SES) with the
 * action and the resource named; the condition keys come from the request (the item's key, the
 * From address, the recipients); the stand-ins' own key passes unchecked; an unknown key is
 * refused as an invalid token.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { NAME_PLACEHOLDERS, rolesFor, type DeployedRoles } from '@site/core/node/deployed-roles';
import { emulatorClientConfig } from '../src/connections';
import { decideCall, startIamGate, type GateCall } from '../src/iam-gate';
import { monitoringChecks, sesV2Checks, signedRegion, UnreadableRequestError } from '../src/aws-requests';
import { ensureMessageTable, startDynamoDb, startSesEmulator, type RunningServer } from '../src/servers';

const ACCOUNT = '123456789012';
const REGION = 'eu-west-1';
const TABLE = `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${NAME_PLACEHOLDERS.table}`;
const SENDER = 'website@firma.nl';

/** Invented roles: one that reads and writes its own kind of item, one that only queries an index, and one that sends mail. */
const ROLES: DeployedRoles = {
  account: ACCOUNT,
  region: REGION,
  keptGrants: {},
  principals: {
    'owns-notes': [
      {
        name: 'notes',
        policy: {
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Action: ['dynamodb:GetItem', 'dynamodb:PutItem'],
              Resource: TABLE,
              Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['note#*'] } },
            },
          ],
        },
      },
    ],
    'reads-the-index': [
      {
        name: 'index',
        policy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'dynamodb:Query', Resource: `${TABLE}/index/byStatus` }] },
      },
    ],
    sender: [
      {
        name: 'mail',
        policy: {
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Action: 'ses:SendEmail',
              Resource: `arn:aws:ses:${REGION}:${ACCOUNT}:identity/*`,
              Condition: { StringEquals: { 'ses:FromAddress': NAME_PLACEHOLDERS.senderAddress } },
            },
          ],
        },
      },
    ],
  },
};

const names = { table: 'gated-table', senderAddress: SENDER, configurationSet: 'gated-set' };
const servers: RunningServer[] = [];
const calls: GateCall[] = [];
let dynamoGate: RunningServer;
let sesGate: RunningServer;

beforeAll(async () => {
  const [dynamodb, ses] = await Promise.all([startDynamoDb({ port: 0 }), startSesEmulator({ port: 0 })]);
  servers.push(dynamodb, ses);
  await ensureMessageTable(dynamodb.url, names.table);
  const record = (call: GateCall) => calls.push(call);
  dynamoGate = await startIamGate({ service: 'dynamodb', upstream: dynamodb.url, roles: ROLES, names, record });
  sesGate = await startIamGate({ service: 'ses', upstream: ses.url, roles: ROLES, names, record });
  servers.push(dynamoGate, sesGate);
});
afterAll(() => Promise.all(servers.map((server) => server.close())));

const table = (principal?: string) =>
  DynamoDBDocumentClient.from(new DynamoDBClient({ ...emulatorClientConfig(dynamoGate.url, principal), maxAttempts: 1 }));
const ses = (principal?: string) => new SESClient({ ...emulatorClientConfig(sesGate.url, principal), maxAttempts: 1 });
const mail = (from: string) =>
  new SendEmailCommand({
    Source: from,
    Destination: { ToAddresses: ['info@firma.nl'] },
    Message: { Subject: { Data: 'Test' }, Body: { Text: { Data: 'Hallo' } } },
  });

describe('DynamoDB behind the gate', () => {
  it('serves what the policy allows, with the item’s key as dynamodb:LeadingKeys', async () => {
    await table('owns-notes').send(new PutCommand({ TableName: names.table, Item: { id: 'note#1', text: 'hallo' } }));
    const { Item } = await table('owns-notes').send(new GetCommand({ TableName: names.table, Key: { id: 'note#1' } }));
    expect(Item).toEqual({ id: 'note#1', text: 'hallo' });
    expect(calls).toContainEqual({ principal: 'owns-notes', action: 'dynamodb:GetItem', resource: TABLE, allowed: true });
  });

  it('refuses another item, another action and another table as AWS does, naming the action and the resource', async () => {
    for (const [command, action, resource] of [
      [new GetCommand({ TableName: names.table, Key: { id: 'message#1' } }), 'dynamodb:GetItem', `table/${names.table}`],
      [new DeleteCommand({ TableName: names.table, Key: { id: 'note#1' } }), 'dynamodb:DeleteItem', `table/${names.table}`],
      [new GetCommand({ TableName: 'another-table', Key: { id: 'note#1' } }), 'dynamodb:GetItem', 'table/another-table'],
    ] as const) {
      await expect(table('owns-notes').send(command as never)).rejects.toMatchObject({
        name: 'AccessDeniedException',
        $metadata: { httpStatusCode: 400 },
        message: expect.stringMatching(
          new RegExp(`not authorized to perform: ${action} on resource: arn:aws:dynamodb:${REGION}:${ACCOUNT}:${resource} `),
        ),
      });
    }
    // Refused before the stand-in: the item is still there.
    expect((await table().send(new GetCommand({ TableName: names.table, Key: { id: 'note#1' } }))).Item).toBeDefined();
  });

  it('answers each item as the simulator does, whichever items it answered before (it keeps a decision per pattern matched)', async () => {
    const get = (id: string) => table('owns-notes').send(new GetCommand({ TableName: names.table, Key: { id } }));
    for (const id of ['note#1', 'message#1', 'note#2', 'note#', 'note#(a|b).*[x]?$', 'note', 'xnote#1', 'Note#1', 'note#1\nmessage#1']) {
      const check = {
        action: 'dynamodb:GetItem',
        resource: TABLE.replace(NAME_PLACEHOLDERS.table, names.table),
        context: { 'dynamodb:LeadingKeys': [id] },
      };
      const simulated = await decideCall(rolesFor(ROLES, names), 'owns-notes', check);
      const answered = await get(id).then(
        () => 'Allowed',
        (error: Error) => error.name,
      );
      expect(answered, id).toBe(simulated === 'Allowed' ? 'Allowed' : 'AccessDeniedException');
    }
  });

  it('evaluates a query against its index, and the table itself apart from it', async () => {
    const byStatus = {
      TableName: names.table,
      IndexName: 'byStatus',
      KeyConditionExpression: '#s = :s',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':s': 'received' },
    };
    await expect(table('reads-the-index').send(new QueryCommand(byStatus))).resolves.toMatchObject({ Count: 0 });
    await expect(table('reads-the-index').send(new QueryCommand({ ...byStatus, IndexName: 'byEmail' }))).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
  });

  it('passes the stand-ins’ own key unchecked, and refuses a key it does not know as an invalid token', async () => {
    await expect(table().send(new GetCommand({ TableName: names.table, Key: { id: 'message#1' } }))).resolves.toBeDefined();
    await expect(table('someone-else').send(new GetCommand({ TableName: names.table, Key: { id: 'note#1' } }))).rejects.toMatchObject({
      name: 'UnrecognizedClientException',
    });
  });
});

describe('SES behind the gate', () => {
  it('sends as the allowed address, a display name before it too (ses:FromAddress is the address)', async () => {
    await expect(ses('sender').send(mail(SENDER))).resolves.toMatchObject({ MessageId: expect.any(String) });
    await expect(ses('sender').send(mail(`"Firma & Zonen (website)" <${SENDER}>`))).resolves.toMatchObject({
      MessageId: expect.any(String),
    });
  });

  it('refuses any other From address as SES does, with AccessDenied naming ses:SendEmail', async () => {
    await expect(ses('sender').send(mail('ceo@firma.nl'))).rejects.toMatchObject({
      name: 'AccessDenied',
      $metadata: { httpStatusCode: 403 },
      message: expect.stringContaining(
        'is not authorized to perform: ses:SendEmail on resource: arn:aws:ses:eu-west-1:123456789012:identity/ceo@firma.nl',
      ),
    });
    await expect(ses('owns-notes').send(mail(SENDER))).rejects.toMatchObject({ name: 'AccessDenied' });
  });
});

describe('the gate’s own connection to the stand-in', () => {
  it('sends a call again on a new connection when the stand-in closed the kept-alive one, so the caller’s one attempt succeeds', async () => {
    // A stand-in that answers the first request on each connection and drops the connection at
    // the next, as a server does whose keep-alive timeout ends just as a request goes out.
    const served: number[] = [];
    const upstream = createServer((request, response) => {
      const socket = request.socket as Socket & { requests?: number };
      socket.requests = (socket.requests ?? 0) + 1;
      if (socket.requests > 1) return socket.destroy();
      served.push(socket.remotePort!);
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      response.end('{}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const gate = await startIamGate({
      service: 'dynamodb',
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      roles: ROLES,
      names,
    });
    try {
      const client = DynamoDBDocumentClient.from(new DynamoDBClient({ ...emulatorClientConfig(gate.url, 'owns-notes'), maxAttempts: 1 }));
      for (const id of ['note#1', 'note#2', 'note#3'])
        await expect(client.send(new GetCommand({ TableName: names.table, Key: { id } }))).resolves.toMatchObject({
          $metadata: { httpStatusCode: 200 },
        });
      expect(served).toHaveLength(3);
      expect(new Set(served).size).toBe(3);
    } finally {
      await gate.close();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });
});

describe('the health’s reads behind the gate', () => {
  it('reads a CloudWatch DescribeAlarms as the account’s alarms in the region it was signed for, SES v2 GetAccount as the account’s, and DescribeRule as the rule it names', () => {
    expect(monitoringChecks('GraniteServiceVersion20100801.DescribeAlarms', {}, 'us-east-1', ACCOUNT)).toEqual([
      { action: 'cloudwatch:DescribeAlarms', resource: `arn:aws:cloudwatch:us-east-1:${ACCOUNT}:alarm:*`, context: {} },
    ]);
    expect(monitoringChecks('AWSEvents.DescribeRule', { Name: 'consultancy-site-test-outside-check' }, REGION, ACCOUNT)).toEqual([
      {
        action: 'events:DescribeRule',
        resource: `arn:aws:events:${REGION}:${ACCOUNT}:rule/consultancy-site-test-outside-check`,
        context: {},
      },
    ]);
    expect(sesV2Checks('GET', '/v2/email/account')).toEqual([
      { action: 'ses:GetAccount', resource: '*', context: { 'ses:ApiVersion': '2' } },
    ]);
    expect(signedRegion('AWS4-HMAC-SHA256 Credential=smoke-health/20261208/us-east-1/monitoring/aws4_request, SignedHeaders=host')).toBe(
      'us-east-1',
    );
  });

  it('refuses to guess at a request it does not know, rather than let it through', () => {
    expect(() => monitoringChecks('GraniteServiceVersion20100801.SetAlarmState', {}, REGION, ACCOUNT)).toThrow(UnreadableRequestError);
    expect(() => monitoringChecks('AWSEvents.DisableRule', { Name: 'x' }, REGION, ACCOUNT)).toThrow(UnreadableRequestError);
    expect(() => sesV2Checks('PUT', '/v2/email/account/sending')).toThrow(UnreadableRequestError);
  });
});
