/**
 * What a function is built from: its configuration and its clients, and for tests the field
 * list and the clock. The handlers' entries (handlers/) build them from Lambda's environment;
 * the local stack and the tests build them for the emulators.
 */
import type { FieldList } from '@site/core/field-spec';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import type { AwsClients } from './shared/aws';
import type { LambdaConfig } from './config';
import type { DeliverySetup } from './mail/delivery';
import { mailRoute } from './mail/mail';
import type { TimingClock } from './contact/answer-timing';

export interface FunctionDependencies<Config extends LambdaConfig = LambdaConfig> {
  config: Config;
  clients: AwsClients;
  /** The contact fields: CONTACT_FIELDS, unless a test adds one. */
  fields?: FieldList;
  /** The time now: the system's clock, unless a test sets one. */
  clock?: () => Date;
  /** The name before the sender address in the firm's inbox: the firm's (NOTIFICATION_TEXT.sender), unless a test gives one. */
  senderName?: string;
  /** The monotonic clock, wait and draw that make held and e-mailed answers alike in time: the system's, unless a test sets them. */
  timing?: TimingClock;
}

export const systemClock = (): Date => new Date();

/** The table, SES, the route and the fields, as one delivery attempt needs them. */
export function deliverySetup({ config, clients, fields = CONTACT_FIELDS, senderName }: FunctionDependencies): DeliverySetup {
  return {
    table: { name: config.tableName, client: clients.documents },
    ses: clients.ses,
    route: { ...mailRoute(config), ...(senderName !== undefined && { senderName }) },
    fields,
  };
}
