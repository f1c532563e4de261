/**
 * The contact form's proof-of-work stamp in Chromium against the local stack: with scripts
 * the form's first use starts a worker that asks our own API for a challenge and solves it
 * while the visitor types, and the message goes with a stamp the function accepts, once;
 * without a worker or without scripts the message is stored and e-mailed all the same; and a
 * send never waits for a solve still under way. What the function made of each stamp is read
 * from the stored message's signals (core/src/table.ts, core/src/spam.ts).
 */
import type { Page, Request, Worker } from '@playwright/test';
import { createChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Payload } from 'altcha-lib/types';
import { API_PATH, CHALLENGE_PATH, FORM_RESULT_PAGES, IDEMPOTENCY_HEADER, STAMP_FIELD } from '@site/core/contract';
import { FAST_FILL_SECONDS, STAMP_DIFFICULTY, SUSPECT_SCORE } from '@site/core/spam';
import { contactForm } from '@site/frontend/content';
import { expect, open, test, type Site } from './fixtures';
import { on } from './viewports';

// Every test here sends from this machine's one address; the visitor limit is not what is tested.
test.use({ stackSettings: { visitorLimit: 50 } });

let visitors = 0;
/** A message of a visitor of its own, so each test finds its own stored message and e-mail. */
function newVisitor(note: string) {
  visitors += 1;
  return {
    name: `Sanne Stempel ${visitors}`,
    email: `sanne${visitors}@stempel.nl`,
    company: 'Stempel Advies',
    message: `Graag een gesprek over de jaarafsluiting (${note}). Wij zijn een familiebedrijf met veertig medewerkers.`,
  };
}
type Message = ReturnType<typeof newVisitor>;

/** Types as a person does: a field at a time, the message key by key. */
async function type(page: Page, message: Message) {
  await page.locator('#contact-name').fill(message.name);
  await page.locator('#contact-email').fill(message.email);
  await page.locator('#contact-company').fill(message.company);
  await page.locator('#contact-message').pressSequentially(message.message, { delay: 10 });
}

/** Sends the form and waits until the visitor is told it was sent; gives the POST. */
async function send(page: Page): Promise<Request> {
  const posted = page.waitForRequest((request) => request.url().endsWith(API_PATH) && request.method() === 'POST');
  await page.getByRole('button', { name: contactForm.submit }).click();
  const post = await posted;
  expect((await post.response())?.status()).toBe(200);
  await expect(page.getByRole('region', { name: 'Meldingen' }).getByText(contactForm.messages.success)).toBeVisible();
  return post;
}

async function storedFor(site: Site, message: Message) {
  const stored = (await site.storedMessages()).filter((item) => item.email === message.email);
  expect(stored).toHaveLength(1);
  return stored[0] as { status: string; score: number; signals: string[]; heldFor?: string };
}

async function emailsFor(site: Site, message: Message) {
  const emails = await site.sentEmails();
  return emails.filter((email) => email.subject.includes(message.name));
}

const closed = (worker: Worker) => new Promise<void>((resolve) => worker.on('close', () => resolve()));

test.describe('the contact form’s proof-of-work stamp', () => {
  test(
    'is asked for on the form’s first use, solved in a worker while the visitor types, and accepted by the function once',
    { tag: on('phone') },
    async ({ page, site }) => {
      // Counted where they leave the browser (Playwright reports a worker's request on the page and on the worker).
      // The challenge is read here too: the worker's response body is gone once the worker has
      // solved it and closed, which a fast machine does before the test could ask for it.
      let challenges = 0;
      const issuedChallenges: Payload['challenge'][] = [];
      await page.route(`**${CHALLENGE_PATH}`, async (route) => {
        challenges += 1;
        const response = await route.fetch();
        issuedChallenges.push(((await response.json()) as { challenge: Payload['challenge'] }).challenge);
        await route.fulfill({ response });
      });
      await open(page, '/');
      // Reading the page costs no challenge and no worker: it has gone quiet without either.
      await page.waitForLoadState('networkidle');
      expect(challenges).toBe(0);
      expect(page.workers()).toEqual([]);

      const started = page.waitForEvent('worker');
      const answered = page.waitForResponse((response) => response.url().endsWith(CHALLENGE_PATH));
      await page.locator('#contact-name').focus();
      const worker = await started;
      const workerDone = closed(worker);
      const challenge = await answered;
      const issued = Date.now();
      expect(challenge.status()).toBe(200);
      expect(challenge.request().method()).toBe('GET');

      const message = newVisitor('met script');
      await type(page, message);
      // The worker posts its stamp and closes itself; a person takes longer than the fast-fill
      // mark, which the function measures on its own clock from the challenge it issued.
      await workerDone;
      await page.waitForTimeout(Math.max(0, issued + (FAST_FILL_SECONDS + 1) * 1000 - Date.now()));
      const post = await send(page);

      const body = post.postDataJSON() as Record<string, string>;
      const payload = JSON.parse(Buffer.from(body[STAMP_FIELD]!, 'base64').toString('utf8')) as Payload;
      expect(payload.challenge).toEqual(issuedChallenges[0]);
      // One challenge for the whole visit: focusing one field after another asks no more.
      expect(challenges).toBe(1);

      const stored = await storedFor(site, message);
      expect(stored.signals).toEqual([]);
      expect(stored.score).toBe(0);
      expect(stored.status).not.toBe('held');
      expect(await emailsFor(site, message)).toHaveLength(1);

      // The same stamp again (a replay, with a message and key of its own) is not accepted twice.
      const replay = newVisitor('opnieuw gestempeld');
      const status = await page.evaluate(
        async ({ path, header, body }) =>
          (await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', [header]: crypto.randomUUID() }, body }))
            .status,
        { path: API_PATH, header: IDEMPOTENCY_HEADER, body: JSON.stringify({ ...replay, [STAMP_FIELD]: body[STAMP_FIELD] }) },
      );
      expect(status).toBe(200);
      expect((await storedFor(site, replay)).signals).toContain('badStamp');
    },
  );

  test('is left out without a worker, and the message is still stored and e-mailed at once', async ({ page, site }) => {
    await page.addInitScript(() => Reflect.deleteProperty(window, 'Worker'));
    await open(page, '/');
    const message = newVisitor('zonder worker');
    await type(page, message);
    const post = await send(page);

    expect(post.postDataJSON()).not.toHaveProperty(STAMP_FIELD);
    const stored = await storedFor(site, message);
    expect(stored.signals).toEqual(['noStamp']);
    expect(stored.score).toBeLessThan(SUSPECT_SCORE);
    expect(stored.status).not.toBe('held');
    expect(await emailsFor(site, message)).toHaveLength(1);
  });

  test.describe(() => {
    test.use({ javaScriptEnabled: false });

    test('is never asked for without scripts, and the form post is still stored and e-mailed at once', async ({ page, site }) => {
      await page.goto('/');
      const challenges: string[] = [];
      page.on('request', (request) => request.url().endsWith(CHALLENGE_PATH) && challenges.push(request.url()));
      const message = newVisitor('zonder script');
      for (const [field, value] of Object.entries(message)) await page.locator(`#contact-${field}`).fill(value);
      const answer = page.waitForResponse((response) => response.url().endsWith(API_PATH));
      await page.getByRole('button', { name: contactForm.submit }).click();

      expect((await answer).status()).toBe(303);
      expect((await answer).headers().location).toBe(FORM_RESULT_PAGES.sent);
      expect(challenges).toEqual([]);
      const stored = await storedFor(site, message);
      expect(stored.signals).toEqual(['noStamp']);
      expect(stored.status).not.toBe('held');
      expect(await emailsFor(site, message)).toHaveLength(1);
    });
  });

  test('never holds up a send: a solve still under way is stopped and the message goes at once, without it', async ({ page, site }) => {
    // A challenge far harder than ours (signed with keys of its own): no solve ends within this test.
    const hard = await createChallenge({
      algorithm: STAMP_DIFFICULTY.algorithm,
      cost: STAMP_DIFFICULTY.cost,
      counter: 500_000_000,
      deriveKey,
      expiresAt: Math.floor(Date.now() / 1000) + STAMP_DIFFICULTY.expiresSeconds,
      hmacSignatureSecret: 'not the function’s',
      hmacKeySignatureSecret: 'not the function’s either',
    });
    await page.route(`**${CHALLENGE_PATH}`, (route) =>
      route.fulfill({ json: { challenge: hard }, headers: { 'Cache-Control': 'no-store' } }),
    );
    await open(page, '/');
    const started = page.waitForEvent('worker');
    const answered = page.waitForResponse((response) => response.url().endsWith(CHALLENGE_PATH));
    await page.locator('#contact-name').focus();
    const worker = await started;
    let solving = true;
    const workerDone = closed(worker).then(() => (solving = false));
    await answered;

    const message = newVisitor('tijdens het rekenen');
    await type(page, message);
    expect(solving).toBe(true);
    const post = await send(page);
    // The send took the worker down rather than wait for it.
    await workerDone;

    expect(post.postDataJSON()).not.toHaveProperty(STAMP_FIELD);
    const stored = await storedFor(site, message);
    expect(stored.signals).toEqual(['noStamp']);
    expect(await emailsFor(site, message)).toHaveLength(1);
  });
});
