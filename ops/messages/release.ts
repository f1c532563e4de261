/**
 * `npm run messages -- release <id>`: e-mails one held message to the firm now, the way
 * resend and the retry job do (@site/lambda/delivery), for a person whose message a wave's
 * budget or signals held. The message leaves `held` by a conditional update first, so two
 * releases never both send it; from there it follows the normal path: `emailed`, its
 * delivery events, or, if SES refuses, `received` for the retry job.
 */
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import type { StoredMessage } from '@site/core/table';
import { deliver } from '@site/lambda/delivery';
import type { MailRoute } from '@site/lambda/mail';
import { getMessage, leaseForRetry } from '@site/lambda/store';
import { CommandError } from './errors';
import type { Target } from './target';
import { releaseHeld } from './wave-queries';

function notHeld(message: StoredMessage): CommandError {
  const { id, status } = message;
  if (status === 'spam') {
    return new CommandError(
      `Message ${id} was marked spam by a purge, not held: nothing sent. To e-mail it anyway, npm run messages -- resend ${id}.`,
    );
  }
  return new CommandError(
    `Message ${id} is not held (its status is '${status}'): nothing sent. It was released or e-mailed already; resend ${id} e-mails it again.`,
  );
}

export async function release(target: Target, id: string, route: MailRoute, now: Date): Promise<void> {
  const message = await getMessage(target.table, id);
  if (!message) throw new CommandError(`No message with id ${id} in ${target.table.name}.`);
  if (message.status !== 'held') throw notHeld(message);
  if (!(await releaseHeld(target.table, id, now))) {
    throw new CommandError(
      `Message ${id} left 'held' while this ran (another release, or a purge): nothing sent. show ${id} says where it is.`,
    );
  }
  // Now 'received': the retry job may see it too, and the lease decides which of the two sends it.
  const released: StoredMessage = { ...message, status: 'received', lastAttemptAt: now.toISOString() };
  // A later time than the one just written, so a retry run that read that one cannot lease it too.
  const at = new Date(now.getTime() + 1);
  if (!(await leaseForRetry(target.table, released, at))) {
    console.log(`Released message ${id}; the retry job took it at once and e-mails it (show ${id} shows the outcome).`);
    return;
  }
  const setup = { table: target.table, ses: target.ses, route, fields: CONTACT_FIELDS };
  const result = await deliver(setup, { ...released, lastAttemptAt: at.toISOString() }, { at, isLast: false });
  if (result.outcome !== 'emailed') {
    throw new CommandError(
      `Released message ${id}, but SES ${target.sesWhere} did not accept the e-mail (${result.error}); it is 'received' now: the retry job will try again.`,
    );
  }
  console.log(
    `Released and e-mailed message ${id} to ${route.to.join(', ')}; SES will report its delivery (npm run messages -- show ${id} shows the outcome).`,
  );
  if (result.recordError) {
    console.error(
      `The e-mail went out, but its status could not be recorded (${result.recordError}): the retry job may send it once more.`,
    );
  }
}
