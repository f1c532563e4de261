/**
 * What `npm start` and `npm run dev` share as command-line programs: ports and numbers read
 * from the environment with a clear error, and one clean stop on Ctrl-C.
 */
import { VISITOR_LIMIT_BOUNDS } from '@site/core/node/deploy-config';
import {
  CONTACT_RECIPIENT_VARIABLE,
  LOCAL_PORTS,
  MAIL_BUDGET_VARIABLE,
  VISITOR_LIMIT_VARIABLE,
  type PortSetting,
} from '@site/local/defaults';
import { LIFTED_MAIL_BUDGETS, PortInUseError, type LocalStackOptions } from './stack';

/** A whole number from 0 to `max` in `variable`, or `fallback` when unset; anything else exits with one line. */
export function integerFrom(variable: string, fallback: number, max: number): number {
  const raw = process.env[variable];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    console.error(`${variable}=${raw} is not a whole number from 0 to ${max}.`);
    process.exit(1);
  }
  return value;
}

/** The port in the setting's variable, or its default. */
export const portFrom = (setting: PortSetting) => integerFrom(setting.variable, setting.port, 65535);

/** The stack's ports as `npm start` and `npm run dev` read them. */
export function localStackPorts(): {
  port: number;
  dynamoPort: number;
  sesPort: number;
  apiPort: number;
  metricsPort: number;
  monitoringPort: number;
} {
  return {
    port: portFrom(LOCAL_PORTS.site),
    dynamoPort: portFrom(LOCAL_PORTS.dynamodb),
    sesPort: portFrom(LOCAL_PORTS.ses),
    apiPort: portFrom(LOCAL_PORTS.api),
    metricsPort: portFrom(LOCAL_PORTS.metrics),
    monitoringPort: portFrom(LOCAL_PORTS.monitoring),
  };
}

/** VISITOR_LIMIT when set (0 turns the limit off); unset, the stack limits visitors as a deploy would. */
export function visitorLimitOverride(): number | undefined {
  if (!process.env[VISITOR_LIMIT_VARIABLE]) return undefined;
  return integerFrom(VISITOR_LIMIT_VARIABLE, 0, VISITOR_LIMIT_BOUNDS.messages);
}

/**
 * MAIL_BUDGET=0 lifts the mail budgets (a demo, a trial of many messages); unset, the stack
 * spends them as a deploy would. Anything else exits with one line: the budgets themselves
 * are cdk.json's.
 */
export function mailBudgetOverride(): LocalStackOptions['mailBudgets'] {
  const raw = process.env[MAIL_BUDGET_VARIABLE];
  if (!raw) return undefined;
  if (raw.trim() !== '0') {
    console.error(
      `${MAIL_BUDGET_VARIABLE}=${raw}: only 0 is taken (it lifts the budgets); the budgets themselves are cdk.json's mailBudget and siteMailBudget.`,
    );
    process.exit(1);
  }
  return LIFTED_MAIL_BUDGETS;
}

/**
 * The e-mail side of `npm start` and `npm run dev`: SES's delivery events on, as in AWS, and
 * the firm's address from CONTACT_RECIPIENT when set (a mailbox simulator address, say);
 * anything that is not an address exits with one line.
 */
export function localDelivery(): { deliveryEvents: true; contactRecipient?: string } {
  const recipient = process.env[CONTACT_RECIPIENT_VARIABLE]?.trim();
  if (!recipient) return { deliveryEvents: true };
  if (!/^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/.test(recipient)) {
    console.error(`${CONTACT_RECIPIENT_VARIABLE}=${recipient} is not an e-mail address, such as bounce@simulator.amazonses.com.`);
    process.exit(1);
  }
  return { deliveryEvents: true, contactRecipient: recipient };
}

/** Runs `close` once on Ctrl-C or SIGTERM (a second Ctrl-C while closing does nothing), then exits. */
export function stopOnSignals(close: () => Promise<void>): void {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

/** A busy port is one line naming the port and its variable; anything else, the error as it is. */
export function exitOnStartFailure(error: unknown): never {
  console.error(error instanceof PortInUseError ? error.message : error);
  process.exit(1);
}
