/**
 * The outside check's posts in the messages' table (core/src/outside-check.ts): stored under
 * CHECK_PREFIX with no status and no address key, so no index, command or digest finds them,
 * and gone within a day by their expiry.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MessageTable } from './store';

/** The fields the check sent, when, and its expiry. */
export interface CheckPost {
  id: string;
  name: string;
  email: string;
  message: string;
  receivedAt: string;
  expiresAt: number;
}

/** Stores the check's post once, as a message is stored. */
export async function storeCheckPost(table: MessageTable, post: CheckPost): Promise<void> {
  await table.client.send(new PutCommand({ TableName: table.name, Item: post, ConditionExpression: 'attribute_not_exists(id)' }));
}

/** Records that SES took the check's e-mail, on the post that is there. */
export async function markCheckEmailed(table: MessageTable, id: string, sent: { sesMessageId: string; at: Date }): Promise<void> {
  await table.client.send(
    new UpdateCommand({
      TableName: table.name,
      Key: { id },
      UpdateExpression: 'SET sesMessageId = :sesMessageId, emailedAt = :at',
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeValues: { ':sesMessageId': sent.sesMessageId, ':at': sent.at.toISOString() },
    }),
  );
}
