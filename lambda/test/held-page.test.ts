/**
 * The firm's page of held messages (decision 0048), through the contact function on the
 * stand-ins, as the office meets it: a wave of clean-looking messages held for the mail
 * budget, a person's message later in the hour, the digest's link, the page listing every one
 * of them with the person first, and a release in one action that reaches the firm with the
 * person's Reply-To. Then what the link and the forms refuse, and what the page and its log
 * lines hold.
 */
import { describe, expect, it } from 'vitest';
import { HELD_LINK_PARAMETER, HONEYPOT_FIELD, STAMP_FIELD } from '@site/core/contract';
import { DIGEST_TEXT } from '@site/core/content/digest';
import { HELD_PAGE_TEXT } from '@site/core/content/held-page';
import { answer, contactEvent, heldEvent, ownMessage } from '@site/testing/api-events';
import { TEST_SITE_URL } from '@site/testing/test-values';
import { createRetryJob } from '../src/retry/retry';
import { heldLinkKey, heldLinkToken } from '../src/held/held-link';
import { HELD_PAGE_LOG } from '../src/held/held-handler';
import { HELD_ACTIONS, HELD_FORM } from '../src/held/held-page';
import { useLocalAws, type LocalAwsStack } from './support/contact-stack';
import { sendUntilStored } from './support/resend';
import { solvedStamp } from './support/stamps';
import { HOUR, waveHandler } from './support/wave';

const DAY_SECONDS = 24 * 60 * 60;

/** The address of the wave's `n`th sender: each on a /16 of its own, as a wave from many networks comes. */
const sender = (n: number) => `${11 + (n >> 8)}.${n & 255}.7.1`;

/** A clean-looking post from the site's own form on `viewer`: stamped a minute before, no link, a text of its own: score 0. */
async function cleanPost(stack: LocalAwsStack, at: Date, viewer: string, more: Record<string, string>) {
  const stamp = await solvedStamp(stack.aws.config.stampKeys, viewer, new Date(at.getTime() - 60_000));
  return contactEvent({ body: { ...ownMessage(more), [STAMP_FIELD]: stamp }, viewer });
}

/** The link in a digest's text, and its token. */
function digestLink(text: string): { url: URL; token: string } {
  const found = text.match(/https:\/\/\S+/g)?.find((address) => address.startsWith(`${TEST_SITE_URL}/api/held?`));
  if (!found) throw new Error(`no link to the page of held messages in the digest:\n${text}`);
  const url = new URL(found);
  return { url, token: url.searchParams.get(HELD_LINK_PARAMETER)! };
}

/** The ids of the messages a page lists, in its order. */
const listed = (html: string) => [...html.matchAll(/id="bericht-([0-9A-Z]{26})"/g)].map((match) => match[1]!);

describe('a wave of a thousand clean-looking messages held for the budget, then a person later in the hour', () => {
  const stack = useLocalAws();

  it(
    'lists every held one on the digest’s page, the person first, and releases theirs in one action with their Reply-To',
    { timeout: 600_000 },
    async () => {
      const start = Date.parse('2026-11-23T09:00:00Z');
      const clock = { now: new Date(start) };
      const handler = waveHandler(stack, clock);
      const total = 1000;
      for (let batch = 0; batch < total; batch += 25) {
        clock.now = new Date(start + (batch / total) * 30 * 60_000);
        const events = await Promise.all(
          Array.from({ length: 25 }, (_, i) => cleanPost(stack, clock.now, sender(batch + i), { name: `Golf ${batch + i}` })),
        );
        const answers = await Promise.all(events.map((event) => sendUntilStored(handler, event)));
        expect(answers.map((result) => result.statusCode)).toEqual(answers.map(() => 200));
      }
      clock.now = new Date(start + 45 * 60_000);
      const person = answer(
        await handler(await cleanPost(stack, clock.now, '192.0.2.77', { name: 'Echte Bezoeker', email: 'echte.bezoeker@voorbeeld.nl' })),
      );
      const personId = person.json.id!;
      expect(await stack.aws.message(personId)).toMatchObject({ status: 'held', heldFor: 'budget', score: 0, signals: [] });
      const held = (await stack.aws.messages()).filter((message) => message.status === 'held');
      expect(held.length).toBeGreaterThan(900);

      // The digest at the hour's end: its ten in full are the wave's oldest, and it carries the link.
      await stack.aws.clearEmails();
      clock.now = new Date(start + HOUR);
      const retry = createRetryJob({ config: stack.aws.config, clients: stack.aws.clientsOf('retry-undelivered'), clock: () => clock.now });
      expect(await retry({ minAgeMs: 0 })).toMatchObject({ digested: held.length });
      // Under load a wave's post can be deferred, and this run re-sends it too: the digest is the one e-mail of its subject.
      const digest = (await stack.aws.sentEmails()).find((email) => email.subject === DIGEST_TEXT.subject(held.length));
      expect(digest!.body.text).not.toContain('Echte Bezoeker');
      const { url, token } = digestLink(digest!.body.text!);
      expect(url.pathname).toBe('/api/held');

      // Opening the link (as a mail scanner would, too) lists them all and changes nothing.
      const before = await stack.aws.messages();
      clock.now = new Date(start + 2 * HOUR);
      const page = await handler(heldEvent({ token }));
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(HELD_PAGE_TEXT.count(20, held.length, false));
      expect(listed(page.body!)[0]).toBe(personId);
      expect(page.body).toContain('href="mailto:echte.bezoeker@voorbeeld.nl"');
      expect(await stack.aws.messages()).toEqual(before);

      // One action: released, e-mailed as its own notification with the person's Reply-To.
      await stack.aws.clearEmails();
      const released = await handler(
        heldEvent({ form: { [HELD_LINK_PARAMETER]: token, [HELD_FORM.action]: HELD_ACTIONS.release, [HELD_FORM.id]: personId } }),
      );
      expect(released.statusCode).toBe(200);
      expect(released.body).toContain(HELD_PAGE_TEXT.released(personId));
      const emails = await stack.aws.sentEmails();
      expect(emails).toHaveLength(1);
      expect(emails[0]).toMatchObject({ replyTo: ['echte.bezoeker@voorbeeld.nl'], subject: expect.stringContaining('Echte Bezoeker') });
      expect(await stack.aws.message(personId)).toMatchObject({ status: 'emailed', attempts: 1 });
      expect(listed(released.body!)).not.toContain(personId);
    },
  );
});

describe('the page of held messages', () => {
  const stack = useLocalAws();
  const clock = { now: new Date('2026-11-24T10:00:00Z') };
  const handler = () => waveHandler(stack, clock);
  const token = () => heldLinkToken(heldLinkKey(stack.aws.config.origin.current), clock.now);

  /** A message held as suspect (its honeypot filled), with a text the test can look for. */
  async function heldMessage(more: Record<string, string>): Promise<string> {
    const sent = answer(await handler()(contactEvent({ body: { ...ownMessage(more), [HONEYPOT_FIELD]: 'x' } })));
    expect(await stack.aws.message(sent.json.id!)).toMatchObject({ status: 'held' });
    return sent.json.id!;
  }

  it('shows nothing of any message for a link that was changed, has expired, is another stage’s or is missing', async () => {
    await heldMessage({ name: 'Geheime Naam', message: 'Een tekst die niemand zonder link mag lezen.' });
    const good = token();
    const tampered = `${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}`;
    const later = `${Number(good.split('.')[0]) + 60}.${good.split('.')[1]}`;
    const expired = heldLinkToken(heldLinkKey(stack.aws.config.origin.current), new Date(clock.now.getTime() - 8 * DAY_SECONDS * 1000));
    const otherStage = heldLinkToken(heldLinkKey('the-origin-secret-of-another-stage-0123456789'), clock.now);
    for (const link of [tampered, later, expired, otherStage, undefined, 'onzin']) {
      const result = await handler()(heldEvent({ token: link }));
      expect(result.statusCode, String(link)).toBe(403);
      expect(result.body).toContain(HELD_PAGE_TEXT.linkInvalid.title);
      expect(result.body).not.toContain('Geheime Naam');
      expect(result.body).not.toContain('niemand zonder link');
    }
    expect((await handler()(heldEvent({ token: good }))).body).toContain('Geheime Naam');
  });

  it('is no-store and noindex, in Dutch, without script or inline style, on the site’s stylesheet', async () => {
    const result = await handler()(heldEvent({ token: token() }));
    expect(result.headers).toMatchObject({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Robots-Tag': 'noindex, nofollow',
    });
    expect(result.body).toContain('<html lang="nl">');
    expect(result.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(result.body).toContain('<link rel="stylesheet" href="/contactformulier.css">');
    expect(result.body).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
  });

  it('marks a message spam with spam’s shorter expiry, and says so; a second click changes nothing', async () => {
    const id = await heldMessage({ name: 'Spam Verzender' });
    const form = { [HELD_LINK_PARAMETER]: token(), [HELD_FORM.action]: HELD_ACTIONS.spam, [HELD_FORM.id]: id };
    const result = await handler()(heldEvent({ form }));
    expect(result.body).toContain(HELD_PAGE_TEXT.markedSpam(id, stack.aws.config.spamRetentionDays));
    const expiresAt = Math.floor(clock.now.getTime() / 1000) + stack.aws.config.spamRetentionDays * DAY_SECONDS;
    expect(await stack.aws.message(id)).toMatchObject({ status: 'spam', expiresAt });
    expect(listed(result.body!)).not.toContain(id);
    const again = await handler()(heldEvent({ form }));
    expect(again.body).toContain(HELD_PAGE_TEXT.handled(id));
    expect(await stack.aws.message(id)).toMatchObject({ status: 'spam', expiresAt });
  });

  it('refuses a button pressed on another site’s page, or without the link’s token, and changes nothing', async () => {
    const id = await heldMessage({ name: 'Blijft Staan' });
    const form = { [HELD_LINK_PARAMETER]: token(), [HELD_FORM.action]: HELD_ACTIONS.release, [HELD_FORM.id]: id };
    await stack.aws.clearEmails();
    const crossSite = await handler()(heldEvent({ form, headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } }));
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.body).toContain(HELD_PAGE_TEXT.crossSite.title);
    const withoutToken = await handler()(heldEvent({ form: { ...form, [HELD_LINK_PARAMETER]: '' } }));
    expect(withoutToken.statusCode).toBe(403);
    expect(withoutToken.body).not.toContain('Blijft Staan');
    expect(await stack.aws.message(id)).toMatchObject({ status: 'held' });
    expect(await stack.aws.sentEmails()).toEqual([]);
  });

  it('finds a message by a word of it, and logs neither the search nor anything the visitor typed', async () => {
    const id = await heldMessage({ name: 'Zoekbare Persoon', message: 'Over de jaarrekening van Béta Holding.' });
    stack.logs.clear();
    const form = { [HELD_LINK_PARAMETER]: token(), [HELD_FORM.action]: HELD_ACTIONS.show, [HELD_FORM.search]: 'beta holding' };
    const result = await handler()(heldEvent({ form }));
    expect(listed(result.body!)).toEqual([id]);
    expect(result.body).toContain(HELD_PAGE_TEXT.count(1, 1, true));
    const lines = stack.logs.entries().filter((entry) => entry.msg === HELD_PAGE_LOG);
    expect(lines).toEqual([expect.objectContaining({ outcome: 'shown', status: 200 })]);
    expect(stack.logs.raw()).not.toMatch(/holding|Zoekbare|jaarrekening/i);
    expect(stack.logs.raw()).not.toContain(token());
  });

  it('words the digest’s answers truly: Reply-To the visitor when it holds one message, a mailto: link for each', async () => {
    const digestOf = async () => {
      await stack.aws.clearEmails();
      const retry = createRetryJob({ config: stack.aws.config, clients: stack.aws.clientsOf('retry-undelivered'), clock: () => clock.now });
      await retry({ minAgeMs: 0 });
      return (await stack.aws.sentEmails())[0]!;
    };
    clock.now = new Date(clock.now.getTime() + 2 * HOUR);
    await digestOf();
    clock.now = new Date(clock.now.getTime() + 2 * HOUR);
    await heldMessage({ name: 'Enige Afzender', email: 'enige@voorbeeld.nl' });
    const one = await digestOf();
    expect(one.replyTo).toEqual(['enige@voorbeeld.nl']);
    expect(one.body.text).toContain(`${DIGEST_TEXT.answer}: mailto:enige@voorbeeld.nl`);
    expect(one.body.text).toContain(DIGEST_TEXT.replyToOne);

    clock.now = new Date(clock.now.getTime() + 2 * HOUR);
    await heldMessage({ name: 'Eerste', email: 'eerste@voorbeeld.nl' });
    await heldMessage({ name: 'Tweede', email: 'tweede@voorbeeld.nl' });
    const two = await digestOf();
    expect(two.replyTo).toEqual([]);
    expect(two.body.text).toContain('mailto:eerste@voorbeeld.nl');
    expect(two.body.text).toContain('mailto:tweede@voorbeeld.nl');
    expect(two.body.text).toContain(DIGEST_TEXT.replyToMany);
    expect(two.body.text).not.toMatch(/vastgehouden/);
  });
});
