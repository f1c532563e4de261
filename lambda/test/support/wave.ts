/**
 * A wave's handler as the spam-wave tests drive it: the contact function with the deploy's
 * default mail budgets (or a test's own) on the stand-ins, a clock the test moves, and
 * stamps as the site's own form makes them.
 */
import { DEFAULTS } from '@site/core/node/deploy-config';
import { STAMP_FIELD } from '@site/core/contract';
import { contactEvent, ownMessage } from '@site/testing/api-events';
import { createContactHandler } from '../../src/contact/contact-handler';
import { systemTiming } from '../../src/contact/answer-timing';
import type { MailBudgets } from '../../src/spam/mail-budget';
import type { LocalAwsStack } from './contact-stack';
import { solvedStamp } from './stamps';

export const BUDGETS: MailBudgets = {
  ordinary: DEFAULTS.mailBudget,
  site: DEFAULTS.siteMailBudget,
};

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/**
 * A handler on the stand-ins with the deploy's default budgets (or the test's own) and a clock
 * the test moves. A held answer's wait for a drawn delivery time is not slept: answer-timing.test.ts
 * proves that wait, and the four wave files spent a third of their time in it.
 */
export function waveHandler(stack: LocalAwsStack, clock: { now: Date }, mailBudgets: MailBudgets = BUDGETS) {
  return createContactHandler({
    config: { ...stack.aws.config, mailBudgets },
    clients: stack.aws.clients,
    clock: () => clock.now,
    timing: { ...systemTiming, sleep: () => Promise.resolve() },
  });
}

/** A stamp as the site's script on `viewer` makes it: a challenge of the function's for its network, solved. */
export const stampFor = (stack: LocalAwsStack, viewer: string, issuedAt: Date) => solvedStamp(stack.aws.config.stampKeys, viewer, issuedAt);

/** A clean message from the site's own form on `viewer`: a stamp asked for two minutes before. */
export async function cleanPost(stack: LocalAwsStack, viewer: string, now: Date, name: string) {
  const stamp = await stampFor(stack, viewer, new Date(now.getTime() - 2 * MINUTE));
  return contactEvent({ body: { ...ownMessage({ name }), [STAMP_FIELD]: stamp }, viewer });
}
