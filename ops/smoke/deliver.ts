/**
 * `npm run smoke -- <site-url> --deliver`: one clearly marked test message through the
 * site's own API, then the stored message read until SES reports it delivered (at most
 * about two minutes), with progress on the terminal. A failure is one line that names
 * where the message stopped: not accepted, not stored, not sent, bounced (with the mail
 * server's diagnostic), complained, rejected, or no event in time.
 *
 * The reading (verdictOf) is pure; deliverTestMessage does the I/O.
 */
import type { ContactRequestBody } from '@site/core/contract';
import { FAST_FILL_SECONDS } from '@site/core/spam';
import type { StoredMessage } from '@site/core/table';
import { getMessage, type MessageTable } from '@site/lambda/store';
import { outcomeDetail } from '@site/ops/messages/render';
import { runOutsideCheck } from '@site/lambda/outside-check';

/**
 * The test message: marked in every field the firm sees, and with a Reply-To at SES's mailbox
 * simulator, so a reply from the firm reaches no person.
 */
export const TEST_MESSAGE: Required<Pick<ContactRequestBody, 'name' | 'email' | 'message'>> = {
  name: 'Testbericht (npm run smoke --deliver)',
  email: 'success@simulator.amazonses.com',
  message:
    'Dit is een automatisch testbericht van de beheerders van de website (npm run smoke -- --deliver). ' +
    'Het controleert dat berichten via het contactformulier in deze mailbox aankomen. U hoeft niets te doen.',
};

export const DELIVER_WAIT_MS = 120_000;

/** Where the message stopped; `delivered` is the one good end. */
export type Stop = 'not accepted' | 'not stored' | 'not sent' | 'held' | 'bounced' | 'complained' | 'rejected' | 'no event in time';

/** Where the test message ended, in one line. */
export type Ending = { done: true; delivered: true; line: string } | { done: true; delivered: false; stop: Stop; line: string };

export type Verdict = Ending | { done: false; progress: string };

const failed = (stop: Stop, detail: string): Ending => ({ done: true, delivered: false, stop, line: `${stop}: ${detail}` });

/** What the mail server said, as `npm run messages -- show` gives it. */
function serverSaid(message: StoredMessage): string {
  return (message.outcome && outcomeDetail(message.outcome)) || 'no diagnostic';
}

/**
 * What a stored message says about the test message's delivery, `final` once the wait is
 * over: an end (delivered, or where it stopped), or a line of progress.
 */
export function verdictOf(id: string, message: StoredMessage | undefined, final: boolean, tableName: string): Verdict {
  if (!message) return failed('not stored', `the API accepted message ${id}, but table ${tableName} does not hold it`);
  const show = `npm run messages -- show ${id}`;
  switch (message.status) {
    case 'delivered':
      return { done: true, delivered: true, line: `delivered: message ${id}, SES reported its delivery at ${message.outcome?.at ?? '?'}` };
    case 'bounced':
      return failed('bounced', `message ${id}: ${serverSaid(message)} (${show})`);
    case 'complained':
      return failed('complained', `message ${id}: the recipient's mail system marked it as spam (${show})`);
    case 'rejected':
      return failed('rejected', `message ${id}: SES did not send it: ${serverSaid(message)} (${show})`);
    case 'failed':
      return failed('not sent', `message ${id}: the retry job gave up after ${message.attempts} attempts (${show})`);
    case 'held':
      return failed(
        'held',
        `message ${id} is stored but held (${message.heldFor ?? 'no reason recorded'}) for the firm's digest, not e-mailed: ` +
          `a suspect score or the mail budget spent (npm run messages -- wave; release ${id} e-mails it)`,
      );
    case 'spam':
      return failed('held', `message ${id} was marked spam by npm run messages -- purge, and was never e-mailed (${show})`);
    case 'received':
      return final
        ? failed(
            'not sent',
            `message ${id} is stored, but SES has not accepted its e-mail (${message.attempts} attempts${message.lastError ? `, last error ${message.lastError}` : ''}); the retry job tries again (${show})`,
          )
        : { done: false, progress: 'stored, not yet accepted by SES' };
    case 'emailed':
    case 'delayed': {
      const state = message.status === 'delayed' ? `delayed (${serverSaid(message)})` : 'accepted by SES, no delivery event yet';
      return final ? failed('no event in time', `message ${id}: ${state} (${show})`) : { done: false, progress: state };
    }
  }
}

export interface DeliverOptions {
  /** The site's base URL (no trailing slash). */
  site: string;
  /** The stage's table, read with the operator's credentials. */
  table: MessageTable;
  timeoutMs: number;
  waitMs?: number;
  pollMs?: number;
  /** One line of progress at a time, for the terminal. */
  progress?: (line: string) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends the test message the way the outside check posts (lambda/src/outside-check/outside-check.ts): the page,
 * its asset, the challenge solved as the page's worker solves it, then the post with the stamp,
 * as a visitor's browser does. Sent no sooner than a person could have filled in the form after
 * the challenge came (FAST_FILL_SECONDS), so it is scored as the clean message it is and e-mailed.
 */
export async function deliverTestMessage(options: DeliverOptions): Promise<Ending> {
  const { site, table, progress = () => undefined } = options;
  const waitMs = options.waitMs ?? DELIVER_WAIT_MS;
  const pollMs = options.pollMs ?? 2_000;
  const sent = await runOutsideCheck({
    site,
    message: TEST_MESSAGE,
    timeoutMs: options.timeoutMs,
    beforePost: (issuedAt) => sleep(Math.max(0, issuedAt.getTime() + (FAST_FILL_SECONDS + 1) * 1000 - Date.now())),
  });
  const id = sent.messageId;
  if (sent.failed || id === undefined) {
    const { step, problem } = sent.failed ?? { step: 'post', problem: 'no message id' };
    return failed('not accepted', step === 'post' ? problem : `before the post, the ${step} step: ${problem}`);
  }
  progress(`sent test message ${id}; waiting up to ${Math.round(waitMs / 1000)} s for SES to report its delivery`);

  const started = Date.now();
  let last = '';
  for (;;) {
    const final = Date.now() - started >= waitMs;
    const verdict = verdictOf(id, await getMessage(table, id), final, table.name);
    if (verdict.done) return verdict;
    const line = `${Math.round((Date.now() - started) / 1000)} s: ${verdict.progress}`;
    if (verdict.progress !== last) progress(line);
    last = verdict.progress;
    await sleep(Math.min(pollMs, Math.max(0, waitMs - (Date.now() - started))));
  }
}
