/**
 * The contact function's way for the outside check's marked post (check-marker.ts), after the
 * validation every post gets: the check's own, so no visitor's limit, mail budget, index,
 * digest or alarm on visitors' messages ever sees it.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ulid } from 'ulid';
import { ERROR_TEXT } from '@site/core/content/api-answers';
import { OUTSIDE_CHECK, OUTSIDE_CHECK_HEADER } from '@site/core/outside-check';
import { CHECK_PREFIX } from '@site/core/table';
import type { Handled } from '../contact/contact-answer';
import { errorResponse, headerValue, jsonResponse } from '../contact/http';
import type { ContactMessage } from '../contact/schema';
import { sendCheckMail, type DeliverySetup } from '../mail/delivery';
import { describeError } from '../shared/log';
import { useStamp } from '../spam/spam-store';
import { checkStamp, type StampKeyring } from '../spam/stamp';
import { storeCheckPost } from '../store/check-posts';
import type { MessageTable } from '../store/store';
import { isCheckMarker } from './check-marker';

/** What the check's post is received with: the contact handler's own. */
export interface CheckPostService {
  config: { stampKeys: StampKeyring; checkMarkerKeys: readonly Buffer[] };
  table: MessageTable;
  setup: DeliverySetup;
  clock: () => Date;
}

/** Whether the post carries the stage's own check marker, made within the accepted minutes. */
export function isCheckPost(event: APIGatewayProxyEventV2, service: CheckPostService): boolean {
  return isCheckMarker(headerValue(event.headers, OUTSIDE_CHECK_HEADER), service.config.checkMarkerKeys, service.clock());
}

/**
 * The outside check's post, once valid: its stamp checked (against the network it came from, as a
 * visitor's is) and recorded as a visitor's is (the
 * answer says whether it held), the post kept OUTSIDE_CHECK.keepSeconds under a CHECK_PREFIX id
 * that no index holds, and its e-mail sent to SES's mailbox simulator. The answer tells the
 * check whether SES took it; a post that could not be stored is answered as a visitor's is.
 */
export async function receiveCheckPost(
  contact: ContactMessage,
  posted: { stamp: unknown; network: string | undefined },
  service: CheckPostService,
): Promise<Handled> {
  const now = service.clock();
  const id = `${CHECK_PREFIX}${ulid(now.getTime())}`;
  const post = {
    id,
    name: contact.name,
    email: contact.email,
    message: contact.message,
    receivedAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + OUTSIDE_CHECK.keepSeconds,
  };
  let stampState: string;
  try {
    const checked = await checkStamp(posted.stamp, service.config.stampKeys, posted.network, now);
    stampState =
      checked.kind !== 'valid'
        ? checked.kind
        : (await useStamp(service.table, { id: checked.id, expiresAt: checked.expiresAt, messageId: id }))
          ? 'valid'
          : 'used';
    await storeCheckPost(service.table, post);
  } catch (error) {
    return { response: errorResponse(503, ERROR_TEXT.notStored), outcome: 'outside_check', attempts: 0, error: describeError(error) };
  }
  const sent = await sendCheckMail(service.setup, post, now);
  return {
    response: jsonResponse(200, { id, check: { stamp: stampState, emailed: sent.emailed } }),
    outcome: 'outside_check',
    attempts: 1,
    messageId: id,
    error: [sent.error, sent.recordError && `record: ${sent.recordError}`].filter(Boolean).join('; ') || undefined,
  };
}
