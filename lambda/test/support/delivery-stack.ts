/**
 * The contact stack (contact-stack.ts) with SES's delivery-event consumer beside the contact
 * handler, for the consumer's tests: a message the contact function really stored and
 * e-mailed, the attempt an event is about, and one event fed with the consumer's log line
 * for it. Log lines are cleared before each test.
 */
import { expect, beforeAll, beforeEach } from 'vitest';
import type { SesDetailType } from '@site/core/ses-events';
import type { StoredMessage } from '@site/core/table';
import { createDeliveryEventHandler, type DeliveryEventHandler } from '../../src/delivery-events/delivery-event-handler';
import { useContactStack, type ContactStack } from './contact-stack';
import { answer, contactEvent, ownMessage } from '@site/testing/api-events';
import { sesEvent, VISITOR, type OurEmail } from '@site/testing/ses-events';

export interface DeliveryStack extends ContactStack {
  consume: DeliveryEventHandler;
  /** A message from the visitor, stored and e-mailed by the contact function: status emailed, attempt 1. */
  emailedMessage: () => Promise<Emailed>;
  /** Feeds one event (changed by `change`, if given) and answers the consumer's log line for it. */
  feed: (
    detailType: SesDetailType,
    email: OurEmail,
    change?: (record: Record<string, any>) => void,
  ) => Promise<Record<string, unknown> | undefined>;
}

export type Emailed = StoredMessage & { sesMessageId: string };

export function useDeliveryStack(): DeliveryStack {
  const stack = useContactStack() as DeliveryStack;
  beforeAll(() => {
    stack.consume = createDeliveryEventHandler({ config: stack.aws.config, clients: stack.aws.clientsOf('record-delivery-event') });
  });
  beforeEach(() => stack.logs.clear());
  stack.emailedMessage = async () => {
    const response = answer(await stack.handler(contactEvent({ body: ownMessage({ name: VISITOR.name, email: VISITOR.email }) })));
    const stored = await stack.aws.message(response.json.id!);
    expect(stored).toMatchObject({ status: 'emailed', attempts: 1, sesMessageId: expect.any(String) });
    return stored as Emailed;
  };
  stack.feed = async (detailType, email, change) => {
    await stack.consume(sesEvent(detailType, email, change));
    return stack.logs.entries().at(-1);
  };
  return stack;
}

/** The attempt an event is about: the message's latest, with the SES message id it was sent under. */
export const ofMessage = (message: Emailed, more: Partial<OurEmail> = {}): OurEmail => ({
  messageId: message.id,
  attempt: message.attempts,
  sesMessageId: message.sesMessageId,
  ...more,
});
