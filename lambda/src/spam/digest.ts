/**
 * The firm's digest: while messages are held (suspect, or past the mail budget), the firm
 * gets at most one e-mail an hour about them instead of one each: how many wait and why, and
 * the best-scoring ones in full, so a person caught in a wave is still read. The retry job
 * sends it (retry.ts); the texts are in core (content/digest.ts). Held messages stay held
 * until someone at the firm handles them on the page the digest links to (held/, decision
 * 0048), which lists every one, or an operator releases one or marks a wave as spam.
 */
import type { SendEmailCommandInput } from '@aws-sdk/client-ses';
import { DIGEST_TEXT } from '@site/core/content/digest';
import type { FieldList } from '@site/core/field-spec';
import { DIGEST_INTERVAL_MINUTES, HELD_FOR, SPAM_SIGNAL_NAMES, type HeldFor, type SpamSignal } from '@site/core/spam';
import { DELIVERY_TAGS } from '@site/core/ses-events';
import type { StoredMessage } from '@site/core/table';
import type { DeliverySetup } from '../mail/delivery';
import { sendNotification, type MailRoute } from '../mail/mail';
import { headerText, mailbox } from '../mail/mail-header';
import { LINE_BREAKING, withoutInvisible } from '../shared/characters';
import { defanged } from '../shared/links';
import { mailtoHref, receivedTime } from '../mail/notification';
import { heldLinkExpiry, heldLinkUrl } from '../held/held-link';
import { claimDigest, listHeldSince, readDigestState, type DigestState } from './spam-store';

/** At most one digest in this time. */
export const DIGEST_INTERVAL_MS = DIGEST_INTERVAL_MINUTES * 60 * 1000;
/** Held messages one digest reads (a page of 1 MB holds about 1,000): the rest is counted by the next. */
export const DIGEST_READ_CAP = 5000;
/** Held messages shown in full, the best-scoring first. */
export const DIGEST_IN_FULL = 10;

export interface Digest {
  count: number;
  /** More were held than one digest reads. */
  more: boolean;
  /** When the first counted message arrived (ISO). */
  since: string;
  /** The last counted message's receivedAt (ISO): the next digest starts after it. */
  through: string;
  heldFor: Record<HeldFor, number>;
  signals: Record<SpamSignal, number>;
  inFull: StoredMessage[];
}

/** What a digest says about these held messages, oldest first. Pure. */
export function digestOf(held: readonly StoredMessage[], more: boolean): Digest | undefined {
  if (held.length === 0) return undefined;
  const heldFor = Object.fromEntries(HELD_FOR.map((reason) => [reason, 0])) as Record<HeldFor, number>;
  const signals = Object.fromEntries(SPAM_SIGNAL_NAMES.map((signal) => [signal, 0])) as Record<SpamSignal, number>;
  for (const message of held) {
    if (message.heldFor) heldFor[message.heldFor] += 1;
    for (const signal of message.signals ?? []) signals[signal] += 1;
  }
  const inFull = [...held]
    .sort((a, b) => (a.score ?? 0) - (b.score ?? 0) || a.receivedAt.localeCompare(b.receivedAt))
    .slice(0, DIGEST_IN_FULL);
  return { count: held.length, more, since: held[0]!.receivedAt, through: held.at(-1)!.receivedAt, heldFor, signals, inFull };
}

/** Before every line of a held message but its first: nothing the visitor typed starts a line of its own. */
const INDENT = '   ';
/** Before every line of a multi-line field: what the visitor wrote, quoted. */
const QUOTE = `${INDENT}> `;

/**
 * One held message, fenced: its entry starts with its number at the line's start and the
 * digest's own words (score, kenmerk), and everything the visitor typed comes after, each
 * line indented, a multi-line field quoted line by line ("> "), web addresses defanged. So a
 * message that writes "Spamscore: 0" or "Naam: Belastingdienst" on lines of its own shows
 * them quoted inside its entry, never as the digest's lines or as an entry of its own.
 */
function messageText(message: StoredMessage, position: number, fields: FieldList): string {
  const values = message as unknown as Record<string, string | undefined>;
  const signals = (message.signals ?? []).map((signal) => DIGEST_TEXT.signal[signal]).join('; ');
  const typed = Object.entries(fields).flatMap(([name, field]) => {
    const value = values[name];
    if (!value) return [];
    const shown = field.kind === 'email' || field.kind === 'phone' ? withoutInvisible(value) : defanged(value);
    if (field.kind !== 'multiline') return [`${INDENT}${field.label}: ${shown.replace(LINE_BREAKING, ' ')}`];
    return [`${INDENT}${field.label}:`, ...shown.split(/\r\n|[\n\r\u2028\u2029]/).map((line) => `${QUOTE}${line}`.trimEnd())];
  });
  return [
    `${position}. ${DIGEST_TEXT.score}: ${message.score ?? 0}${signals ? ` (${signals})` : ''}`,
    `${INDENT}${DIGEST_TEXT.reference}: ${message.id}, ${receivedTime(message.receivedAt)}`,
    `${INDENT}${DIGEST_TEXT.answer}: ${mailtoHref(message.email)}`,
    ...typed,
  ].join('\n');
}

/** Where the digest's reader finds every held message, and how an answer reaches a visitor. */
export interface DigestLink {
  /** The page of held messages, with a token that works for a week. */
  url: string;
  /** Until when the link works (ISO). */
  until: string;
}

/** The digest as plain text: counts first, then the page's link, then the messages in full, and how to answer. */
export function digestBody(digest: Digest, fields: FieldList, link: DigestLink): string {
  const counted = <K extends string>(counts: Record<K, number>, labels: Record<K, string>) =>
    (Object.entries(counts) as [K, number][]).filter(([, count]) => count > 0).map(([key, count]) => `- ${labels[key]}: ${count}`);
  return [
    DIGEST_TEXT.intro(digest.count, receivedTime(digest.since)),
    ...(digest.more ? ['', DIGEST_TEXT.more] : []),
    '',
    DIGEST_TEXT.page(receivedTime(link.until)),
    link.url,
    '',
    `${DIGEST_TEXT.why}:`,
    ...counted(digest.heldFor, DIGEST_TEXT.heldFor),
    '',
    `${DIGEST_TEXT.signals}:`,
    ...counted(digest.signals, DIGEST_TEXT.signal),
    '',
    `${DIGEST_TEXT.inFull(digest.inFull.length)}:`,
    ...digest.inFull.flatMap((message, index) => ['', messageText(message, index + 1, fields)]),
    '',
    digest.inFull.length === 1 ? DIGEST_TEXT.replyToOne : DIGEST_TEXT.replyToMany,
    '',
  ].join('\n');
}

/**
 * The SendEmail request for a digest: through the stage's configuration set like every
 * e-mail (its bounces count), tagged as a digest so the delivery events are not taken for a
 * message's. Reply-To the visitor when it holds one message, so answering it answers them;
 * with more, none (an answer would reach them all), and each message carries its mailto: link.
 */
export function digestEmail(digest: Digest, route: MailRoute, fields: FieldList, link: DigestLink): SendEmailCommandInput {
  const only = digest.inFull.length === 1 ? digest.inFull[0] : undefined;
  return {
    ...(only && { ReplyToAddresses: [only.email] }),
    ConfigurationSetName: route.configurationSet,
    Tags: [{ Name: DELIVERY_TAGS.digest, Value: digest.through.replace(/[^0-9A-Za-z]/g, '') }],
    Source: mailbox(DIGEST_TEXT.sender, route.from),
    Destination: { ToAddresses: route.to },
    Message: {
      Subject: { Data: headerText(DIGEST_TEXT.subject(digest.count)), Charset: 'UTF-8' },
      Body: { Text: { Data: digestBody(digest, fields, link), Charset: 'UTF-8' } },
    },
  };
}

export type DigestResult =
  { outcome: 'sent'; count: number } | { outcome: 'none' | 'not_due' } | { outcome: 'failed'; error: unknown; count: number };

/**
 * Sends the digest of the messages held since the last one, if there are any and the last is
 * an hour old. The digest is claimed before it is sent, so overlapping runs send one; when
 * SES refuses it, the claim is given back and the next run tries again.
 */
export async function sendDigest(setup: DeliverySetup, heldLink: { siteUrl: string; key: Buffer }, now: Date): Promise<DigestResult> {
  const { table } = setup;
  const last = await readDigestState(table);
  if (last.sentAt !== undefined && now.getTime() - Date.parse(last.sentAt) < DIGEST_INTERVAL_MS) return { outcome: 'not_due' };
  const { messages, more } = await listHeldSince(table, last.through, DIGEST_READ_CAP);
  const digest = digestOf(messages, more);
  if (!digest) return { outcome: 'none' };
  const next: DigestState = { sentAt: now.toISOString(), through: digest.through };
  if (!(await claimDigest(table, last, next))) return { outcome: 'not_due' };
  try {
    const link = { url: heldLinkUrl(heldLink.siteUrl, heldLink.key, now), until: heldLinkExpiry(now).toISOString() };
    await sendNotification(setup.ses, digestEmail(digest, setup.route, setup.fields, link));
    return { outcome: 'sent', count: digest.count };
  } catch (error) {
    // Best effort: if the state cannot be put back, the next digest starts after these messages.
    await claimDigest(table, next, last).catch(() => false);
    return { outcome: 'failed', error, count: digest.count };
  }
}
