/**
 * What a spam wave costs, per 1,000 messages: the contact function (from source, on the local
 * stack's dynalite and SES stand-in) with the deploy's default mail budgets and a clock that
 * spreads the wave over one hour, each message from an address of its own, then one run of
 * the retry job at the hour's end (the digest). Counted: e-mails the firm receives, SES
 * sends, DynamoDB write requests and the write units they consume (ReturnConsumedCapacity, as
 * DynamoDB bills them; a write refused by its condition as one), and messages stored and held.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import type { FunctionName } from '@site/core/names';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { mailBudgetsFrom } from '@site/core/node/deploy-config';
import { createAwsClients } from '@site/lambda/aws';
import { readContactConfig, readRetryConfig } from '@site/lambda/config';
import { createContactHandler } from '@site/lambda/contact-handler';
import { createRetryJob } from '@site/lambda/retry';
import { CONTACT_ROUTE_KEY, toApiGatewayEvent } from '@site/emulators/api-gateway';
import { emulatorClientConfig, emulatorConnections } from '@site/emulators/connections';
import { clearSentEmails, fetchSentEmails } from '@site/emulators/servers';
import { originRequestHeaders } from '@site/local/edge';
import type { LocalStack } from '@site/local/stack';
import { API_PATH, FORM_CONTENT_TYPE } from '@site/core/contract';

export interface SpamWave {
  messages: number;
  stored: number;
  held: number;
  /** E-mails the firm received: the budget's and the digest. */
  emails: number;
  sesSends: number;
  dynamoWrites: number;
  writeUnits: number;
  /** The mail budget the wave ran with (e-mails per hour). */
  perHour: number;
}

const WRITES = new Set(['PutCommand', 'UpdateCommand', 'DeleteCommand', 'PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand']);

export async function measureSpamWave(stack: LocalStack, messages = 1000): Promise<SpamWave> {
  const budgets = mailBudgetsFrom(CDK_JSON_CONTEXT);
  const counts = { dynamoWrites: 0, writeUnits: 0, sesSends: 0 };
  /** A function's clients, signed with its role, counting its writes and sends. */
  const countingClients = (fn: FunctionName) => {
    const clients = createAwsClients(emulatorConnections(stack.urls, fn));
    clients.documents.middlewareStack.add(
      (next, context) => async (args) => {
        const write = WRITES.has(context.commandName ?? '');
        if (!write) return next(args);
        (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
        counts.dynamoWrites += 1;
        try {
          const result = await next(args);
          counts.writeUnits += (result.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity?.CapacityUnits ?? 0;
          return result;
        } catch (error) {
          // A write refused by its condition is billed too: at least one unit.
          if ((error as { name?: string }).name === 'ConditionalCheckFailedException') counts.writeUnits += 1;
          throw error;
        }
      },
      { step: 'initialize', name: 'count-writes' },
    );
    clients.ses.middlewareStack.add((next) => (args) => ((counts.sesSends += 1), next(args)), { step: 'initialize', name: 'count-sends' });
    return clients;
  };
  const clients = countingClients('send-contact-email');
  const config = readContactConfig(stack.lambdaEnv);
  const start = Date.parse('2026-11-23T09:00:00Z');
  const clock = { now: new Date(start) };
  const handler = createContactHandler({
    config: { ...config, mailBudgets: { ordinary: budgets.mailBudget, site: budgets.siteMailBudget } },
    clients,
    clock: () => clock.now,
  });
  await clearSentEmails(stack.urls.ses);
  const siteHost = new URL(stack.urls.site).host;
  for (let i = 0; i < messages; i += 10) {
    clock.now = new Date(start + (i / messages) * 59 * 60_000);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, k) => {
        const n = i + k;
        const body = new URLSearchParams({
          name: `Promo ${n}`,
          email: `promo${n}@seo-deals.example`,
          message: 'Cheap SEO services, first page of Google guaranteed: https://seo-deals.example/offer',
        }).toString();
        const headers = originRequestHeaders(
          { host: siteHost, 'content-type': FORM_CONTENT_TYPE },
          { address: `198.18.${(n >> 8) & 255}.${n & 255}`, port: 40_000, scheme: 'https' },
          config.origin.current,
        );
        return handler(
          toApiGatewayEvent(
            { method: 'POST', url: API_PATH, headers, body: Buffer.from(body), sourceIp: '203.0.113.7' },
            CONTACT_ROUTE_KEY,
          ),
        );
      }),
    );
    for (const answer of answers) if (answer.statusCode !== 303) throw new Error(`a wave's post was answered ${answer.statusCode}`);
  }
  clock.now = new Date(start + 60 * 60_000);
  const retry = createRetryJob({
    config: readRetryConfig(stack.lambdaEnv),
    clients: countingClients('retry-undelivered'),
    clock: () => clock.now,
  });
  const run = await retry({ minAgeMs: 0 });
  const emails = (await fetchSentEmails(stack.urls.ses)).length;
  // Page by page: one Scan reads 1 MB of the table before its filter, and the wave's counters and idempotency records fill that before its messages end.
  let stored = 0;
  const pages = paginateScan(
    { client: DynamoDBDocumentClient.from(new DynamoDBClient(emulatorClientConfig(stack.urls.dynamodb))) },
    {
      TableName: config.tableName,
      Select: 'COUNT',
      FilterExpression: 'begins_with(email, :promo)',
      ExpressionAttributeValues: { ':promo': 'promo' },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) stored += page.Count ?? 0;
  return { messages, stored, held: run.digested, emails, ...counts, perHour: budgets.mailBudget.perHour };
}
