/**
 * What IAM authorises for one AWS API request, read from the request as the service reads it:
 * the signer (the access key id), and each action on each resource with the condition keys the
 * service puts in the request context. DynamoDB's JSON protocol, SES's query protocol (v1, what
 * the functions' client speaks) and SES v2's REST reads; CloudWatch's and EventBridge's JSON
 * reads that `npm run smoke`'s health makes. Pure: the gate (iam-gate.ts) does the I/O.
 *
 * The context keys are the ones the stages' policies can use: dynamodb:LeadingKeys on single
 * items and table queries, dynamodb:Select and dynamodb:ReturnValues; ses:FromAddress,
 * ses:FromDisplayName, ses:Recipients, ses:FeedbackAddress and ses:ApiVersion. Not
 * dynamodb:Attributes (no policy here names attributes), nor LeadingKeys on an index query.
 */
import { MESSAGE_TABLE } from '@site/core/table';

export interface Check {
  action: string;
  resource: string;
  context: Record<string, string | string[]>;
}

/** The signer's access key id, from SigV4's Authorization header; undefined for a request no SDK signed (a stand-in's own page). */
export function signer(authorization: string | undefined): string | undefined {
  return /\bCredential=([^/,\s]+)\//.exec(authorization ?? '')?.[1];
}

export class UnreadableRequestError extends Error {}

/** An attribute as DynamoDB's JSON protocol writes it; a key's is a string, a number or bytes. */
interface AttributeValue {
  S?: string;
  N?: string;
  B?: string;
}
type Item = Record<string, AttributeValue>;

/** What a DynamoDB request says that IAM reads. */
export interface DynamoDbRequest {
  TableName?: string;
  IndexName?: string;
  Key?: Item;
  Item?: Item;
  Select?: string;
  ReturnValues?: string;
  KeyConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Item;
  RequestItems?: Record<string, { Keys?: Item[] } | { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]>;
  TransactItems?: Record<string, DynamoDbRequest>[];
}

const PARTITION_KEY = MESSAGE_TABLE.partitionKey.name;

/** The partition key's value in an item or key, as its string form. */
function leadingKey(item: Item | undefined): string[] {
  const value = item?.[PARTITION_KEY];
  const scalar = value?.S ?? value?.N ?? value?.B;
  return scalar === undefined ? [] : [scalar];
}

/** A table query's partition key value: the `<key> = <:value>` of its key condition. */
function queriedKey(request: DynamoDbRequest): string[] {
  const names = request.ExpressionAttributeNames ?? {};
  for (const [, name, placeholder] of (request.KeyConditionExpression ?? '').matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    const value = request.ExpressionAttributeValues?.[placeholder!];
    if ((names[name!] ?? name) === PARTITION_KEY && value) return leadingKey({ [PARTITION_KEY]: value });
  }
  return [];
}

const DYNAMODB_TARGET = /^DynamoDB_\d{8}\.(\w+)$/;

/** The single-item action each part of a transaction is authorised as. */
const TRANSACTION_PARTS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Get: 'GetItem',
};

/** What one DynamoDB request asks IAM for, with the table's ARN in this account and region. */
export function dynamodbChecks(target: string | undefined, request: DynamoDbRequest, arnPrefix: string): Check[] {
  const operation = DYNAMODB_TARGET.exec(target ?? '')?.[1];
  if (!operation) throw new UnreadableRequestError(`not a DynamoDB request (X-Amz-Target ${String(target)})`);
  const table = (name: string | undefined) => `${arnPrefix}:table/${name ?? ''}`;
  const options = (of: DynamoDbRequest) => ({
    ...(of.Select !== undefined && { 'dynamodb:Select': of.Select }),
    ...(of.ReturnValues !== undefined && { 'dynamodb:ReturnValues': of.ReturnValues }),
  });
  const item = (action: string, of: DynamoDbRequest, key: Item | undefined): Check => ({
    action: `dynamodb:${action}`,
    resource: table(of.TableName),
    context: { 'dynamodb:LeadingKeys': leadingKey(key), ...options(of) },
  });
  switch (operation) {
    case 'GetItem':
    case 'DeleteItem':
    case 'UpdateItem':
      return [item(operation, request, request.Key)];
    case 'PutItem':
      return [item(operation, request, request.Item)];
    case 'Query':
    case 'Scan': {
      const onIndex = request.IndexName !== undefined;
      const resource = onIndex ? `${table(request.TableName)}/index/${request.IndexName}` : table(request.TableName);
      const keys: Check['context'] = operation === 'Query' && !onIndex ? { 'dynamodb:LeadingKeys': queriedKey(request) } : {};
      return [{ action: `dynamodb:${operation}`, resource, context: { ...keys, ...options(request) } }];
    }
    case 'BatchGetItem':
    case 'BatchWriteItem':
      // One check per table, with the partition key of every item it reads or writes there.
      return Object.entries(request.RequestItems ?? {}).map(([name, part]) => {
        const keys = Array.isArray(part) ? part.map((write) => write.PutRequest?.Item ?? write.DeleteRequest?.Key) : (part.Keys ?? []);
        return { action: `dynamodb:${operation}`, resource: table(name), context: { 'dynamodb:LeadingKeys': keys.flatMap(leadingKey) } };
      });
    case 'TransactWriteItems':
    case 'TransactGetItems':
      // Each part is authorised as the single-item action it is.
      return (request.TransactItems ?? []).map((part) => {
        const [kind, of] = Object.entries(part)[0] ?? [];
        const action = kind === undefined ? undefined : TRANSACTION_PARTS[kind];
        if (!action || !of) throw new UnreadableRequestError(`a transaction part ${String(kind)}`);
        return item(action, of, of.Item ?? of.Key);
      });
    default:
      return [{ action: `dynamodb:${operation}`, resource: request.TableName ? table(request.TableName) : '*', context: {} }];
  }
}

/** The address of a mailbox such as `"Kantoor (website)" <website@firma.nl>`, and its display name. */
function mailbox(value: string): { address: string; displayName?: string } {
  const angle = /^(.*)<([^<>]+)>\s*$/.exec(value);
  if (!angle) return { address: value.trim() };
  const name = angle[1]!.trim().replace(/^"(.*)"$/, '$1');
  return { address: angle[2]!.trim(), ...(name && { displayName: name }) };
}

/** The values of a query-protocol list, `<prefix>.member.1`, `.member.2`, …, in order. */
export function members(params: URLSearchParams, prefix: string): string[] {
  const values: string[] = [];
  for (let index = 1; params.has(`${prefix}.member.${index}`); index += 1) values.push(params.get(`${prefix}.member.${index}`)!);
  return values;
}

/**
 * What one SES (v1, query protocol) request asks IAM for. SendEmail is authorised against the
 * sender's identity, the configuration set it names, and, as in the SES sandbox where a new
 * account starts, each recipient's identity: all must allow it.
 */
export function sesChecks(form: string, arnPrefix: string): Check[] {
  const params = new URLSearchParams(form);
  const action = params.get('Action');
  if (!action) throw new UnreadableRequestError('not an SES query-protocol request (no Action)');
  if (action !== 'SendEmail' && action !== 'SendRawEmail')
    return [{ action: `ses:${action}`, resource: '*', context: { 'ses:ApiVersion': '1' } }];
  const from = mailbox(params.get('Source') ?? '');
  const recipients = ['Destination.ToAddresses', 'Destination.CcAddresses', 'Destination.BccAddresses', 'Destinations'].flatMap((list) =>
    members(params, list).map((address) => mailbox(address).address),
  );
  const returnPath = params.get('ReturnPath');
  const context = {
    'ses:ApiVersion': '1',
    'ses:FromAddress': from.address,
    ...(from.displayName !== undefined && { 'ses:FromDisplayName': from.displayName }),
    'ses:Recipients': recipients,
    ...(returnPath !== null && { 'ses:FeedbackAddress': returnPath }),
  };
  const identity = (address: string) => `${arnPrefix}:identity/${address}`;
  const configurationSet = params.get('ConfigurationSetName');
  return [
    identity(from.address),
    ...(configurationSet ? [`${arnPrefix}:configuration-set/${configurationSet}`] : []),
    ...recipients.map(identity),
  ].map((resource) => ({ action: `ses:${action}`, resource, context }));
}

/** The region a SigV4 request was signed for, from its credential scope: `Credential=<key>/<date>/<region>/<service>/aws4_request`. */
export function signedRegion(authorization: string | undefined): string | undefined {
  return /\bCredential=[^/,\s]+\/\d{8}\/([a-z0-9-]+)\//.exec(authorization ?? '')?.[1];
}

/** What one SES v2 (REST) request asks IAM for: the account's own reads, which name no resource. */
export function sesV2Checks(method: string | undefined, path: string): Check[] {
  if (method === 'GET' && path.split('?')[0] === '/v2/email/account') {
    return [{ action: 'ses:GetAccount', resource: '*', context: { 'ses:ApiVersion': '2' } }];
  }
  throw new UnreadableRequestError(`an SES v2 request the gate does not know: ${String(method)} ${path.split('?')[0]}`);
}

const CLOUDWATCH_TARGET = /^GraniteServiceVersion20100801\.(\w+)$/;
const EVENTS_TARGET = /^AWSEvents\.(\w+)$/;

/**
 * What one CloudWatch (JSON 1.0) or EventBridge (JSON 1.1) request asks IAM for, in `region` of
 * `account`: DescribeAlarms on the account's alarms there, DescribeRule on the rule it names.
 */
export function monitoringChecks(target: string | undefined, request: { Name?: string }, region: string, account: string): Check[] {
  const cloudwatch = CLOUDWATCH_TARGET.exec(target ?? '')?.[1];
  if (cloudwatch === 'DescribeAlarms') {
    return [{ action: 'cloudwatch:DescribeAlarms', resource: `arn:aws:cloudwatch:${region}:${account}:alarm:*`, context: {} }];
  }
  if (EVENTS_TARGET.exec(target ?? '')?.[1] === 'DescribeRule' && typeof request.Name === 'string') {
    return [{ action: 'events:DescribeRule', resource: `arn:aws:events:${region}:${account}:rule/${request.Name}`, context: {} }];
  }
  throw new UnreadableRequestError(`a CloudWatch or EventBridge request the gate does not know (X-Amz-Target ${String(target)})`);
}
