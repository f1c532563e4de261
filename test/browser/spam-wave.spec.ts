/**
 * A spam wave against the local stack with the mail budgets `npm start` runs with (the
 * deploy's defaults, from cdk.json): a hundred and twenty scripted form posts, each from an
 * address of its own, are all stored, and the firm gets at most the hour's budget and a
 * digest; a person who then uses the site's own form in Chromium still reaches the firm
 * within a minute.
 */
import { request } from 'node:http';
import type { Page } from '@playwright/test';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { mailBudgetsFrom } from '@site/core/node/deploy-config';
import { API_PATH, CHALLENGE_PATH, FORM_CONTENT_TYPE, FORM_RESULT_PAGES } from '@site/core/contract';
import { FAST_FILL_SECONDS } from '@site/core/spam';
import { contactForm } from '@site/frontend/content/site';
import { expect, open, test, type Site } from './fixtures';

const WAVE = 120;
const budgets = mailBudgetsFrom(CDK_JSON_CONTEXT);

test.use({ stackSettings: { mailBudgets: budgets } });

/** A bot's form post, from its own loopback address (127.0.0.0/8 is all this machine's). */
function botPost(site: Site, n: number): Promise<{ status: number; location?: string }> {
  const url = new URL(API_PATH, site.url());
  const body = new URLSearchParams({
    name: `Promo ${n}`,
    email: `promo${n}@seo-deals.example`,
    phone: '',
    company: '',
    message: 'Cheap SEO services, first page of Google guaranteed: https://seo-deals.example/offer',
  }).toString();
  return new Promise((resolve, reject) => {
    const post = request(
      url,
      {
        method: 'POST',
        localAddress: `127.0.${(n >> 8) & 255}.${(n & 255) + 2}`,
        headers: { 'content-type': FORM_CONTENT_TYPE, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, location: response.headers.location }));
      },
    );
    post.on('error', reject);
    post.end(body);
  });
}

async function personSends(page: Page, name: string): Promise<void> {
  const answered = page.waitForResponse((response) => response.url().endsWith(CHALLENGE_PATH));
  await page.locator('#contact-name').fill(name);
  const issued = Date.now();
  await answered;
  await page.locator('#contact-email').fill('marieke@bakkerij-jansen.nl');
  await page.locator('#contact-message').pressSequentially('Wij zoeken hulp bij de jaarrekening van onze bakkerij.', { delay: 10 });
  // A person takes longer than the fast-fill mark.
  await page.waitForTimeout(Math.max(0, issued + (FAST_FILL_SECONDS + 1) * 1000 - Date.now()));
  await page.getByRole('button', { name: contactForm.submit }).click();
  await expect(page.getByRole('region', { name: 'Meldingen' }).getByText(contactForm.messages.success)).toBeVisible();
}

test(`stores all of ${WAVE} scripted posts from as many addresses, e-mails at most the hour's budget and a digest, and a person still gets through`, async ({
  page,
  site,
}) => {
  // A wave of posts, a person's pace through the form, and the minute the person's message may take to reach the firm.
  test.setTimeout(120_000);
  for (let n = 0; n < WAVE; n += 10) {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => botPost(site, n + i)));
    for (const answer of answers) expect(answer).toEqual({ status: 303, location: FORM_RESULT_PAGES.sent });
  }
  const stored = await site.storedMessages();
  expect(stored.filter((message) => String(message.name).startsWith('Promo '))).toHaveLength(WAVE);

  await site.stack.runRetryJob();
  const emails = await site.sentEmails();
  expect(emails.length).toBeLessThanOrEqual(budgets.mailBudget.perHour + 1);
  expect(emails.length).toBeLessThanOrEqual(12);

  await open(page, '/');
  await page.locator('#contact').scrollIntoViewIfNeeded();
  const sentAt = Date.now();
  await personSends(page, 'Marieke Jansen');
  const reached = async () => (await site.sentEmails()).some((email) => email.subject.includes('Marieke Jansen'));
  await expect
    .poll(reached, { message: 'the person’s message reaches the firm within a minute', timeout: Math.max(1, sentAt + 60_000 - Date.now()) })
    .toBe(true);
});
