/**
 * A conditional write to the message table, whose failed condition is an answer rather than
 * an error: a duplicate, a lost race, a record changed meanwhile. DynamoDB answers it with
 * ConditionalCheckFailedException; every other error is thrown on. (The local DynamoDB
 * stand-in has no transactions, and none are needed: a condition is how a duplicate or a lost
 * race shows itself.)
 */

export type ConditionalWrite =
  | { applied: true }
  /** The condition did not hold; `refusal` is DynamoDB's answer, for a caller that must fail with it. */
  | { applied: false; refusal: unknown };

export function isConditionFailure(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'ConditionalCheckFailedException';
}

export async function conditionalWrite(write: () => Promise<unknown>): Promise<ConditionalWrite> {
  try {
    await write();
    return { applied: true };
  } catch (error) {
    if (isConditionFailure(error)) return { applied: false, refusal: error };
    throw error;
  }
}

/** The write, true when it was applied and false when its condition did not hold. */
export async function writeIfCondition(write: () => Promise<unknown>): Promise<boolean> {
  return (await conditionalWrite(write)).applied;
}
