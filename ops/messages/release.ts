/**
 * `npm run messages -- release <id>`: e-mails one held message to the firm now, the way
 * the firm's page of held messages does (@site/lambda/held-store), for a person whose message
 * a wave's budget or signals held. The message leaves `held` by a conditional update first,
 * so two releases never both send it; from there it follows the normal path: `emailed`, its
 * delivery events, or, if SES refuses, `received` for the retry job.
 */
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import type { StoredMessage } from '@site/core/table';
import { releaseMessage } from '@site/lambda/held-store';
import type { MailRoute } from '@site/lambda/mail';
import { getMessage } from '@site/lambda/store';
import { CommandError } from './errors';
import type { Target } from './target';

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
  const setup = { table: target.table, ses: target.ses, route, fields: CONTACT_FIELDS };
  const released = await releaseMessage(setup, message, now);
  if (released.outcome === 'not_held') {
    throw new CommandError(
      `Message ${id} left 'held' while this ran (another release, or a purge): nothing sent. show ${id} says where it is.`,
    );
  }
  if (released.outcome === 'taken') {
    console.log(`Released message ${id}; the retry job took it at once and e-mails it (show ${id} shows the outcome).`);
    return;
  }
  const result = released.delivery;
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
