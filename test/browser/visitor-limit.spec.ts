/**
 * The visitor limit as a visitor meets it, in Chromium against the local stack with a limit
 * of one message: the form shows its error toast with when to send again and how to reach the
 * firm, and keeps what was typed; without scripts the post gets the form back with what was
 * typed and the one sentence on when sending works again. Nothing more is stored.
 */
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { visitorLimitFrom } from '@site/core/node/deploy-config';
import { API_PATH } from '@site/core/contract';
import { refusedPost, visitorLimitSentence } from '@site/core/content/refused-post';
import { secondsLeft, windowAt } from '@site/lambda/visitor-limit';
import { contactForm, firm, phoneHref, sentConfirmation } from '@site/frontend/content/site';
import { retryAfterMinutes } from '@site/frontend/retry-after';
import { startSite, type Site } from './support';
import { asRead } from '@site/testing/as-read';

let site: Site;
beforeAll(async () => {
  site = await startSite({ visitorLimit: 1 });
});
afterAll(() => site?.close());

/** Every test starts well inside a window: one that ends between two sends would count afresh. */
beforeEach(async () => {
  const windowSeconds = visitorLimitFrom(CDK_JSON_CONTEXT).windowMinutes * 60;
  const left = secondsLeft(windowAt(new Date(), windowSeconds), new Date());
  if (left < 30) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
});

const storedCount = async () => (await site.storedMessages()).length;

async function fill(page: Page, message: string) {
  await page.locator('#contact-name').fill('Vera Vaker');
  await page.locator('#contact-email').fill('vera@vaker.nl');
  await page.locator('#contact-message').fill(message);
}

describe('a visitor over the limit (1 message here)', () => {
  it('gets the form’s error toast alone, saying when to send again and how to reach the firm now, with the fields kept (1440 and 390 px)', async () => {
    const desktop = await site.open('/');
    const mobile = await site.open('/', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    for (const [i, { page }] of [desktop, mobile].entries()) {
      await page.locator('#contact').scrollIntoViewIfNeeded();
      if (i === 0) {
        await fill(page, 'Eerste bericht.');
        await page.getByRole('button', { name: contactForm.submit }).click();
        await page.getByRole('status').getByText(contactForm.messages.success).waitFor();
        expect(await storedCount()).toBe(1);
        await page.getByRole('button', { name: sentConfirmation.another }).click();
      }

      await fill(page, 'Tweede bericht, kort daarna.');
      const answer = page.waitForResponse((response) => response.url().endsWith(API_PATH));
      await page.getByRole('button', { name: contactForm.submit }).click();
      const refused = await answer;
      expect(refused.status()).toBe(429);
      const minutes = retryAfterMinutes(refused.headers()['retry-after'] ?? null);
      expect(minutes).toBeGreaterThanOrEqual(1);
      // Never longer than the no-script limit page's 'binnen' (one window of the limit).
      expect(minutes).toBeLessThanOrEqual(visitorLimitFrom(CDK_JSON_CONTEXT).windowMinutes);
      const failure = page.getByRole('alert');
      await failure.waitFor();
      expect(await failure.locator('.toast-message').textContent()).toBe(contactForm.messages.failure);
      expect(await failure.locator('.toast-detail').allTextContents()).toEqual([
        contactForm.limited.again(minutes),
        `Liever meteen contact? Bel ${firm.phone} of mail naar ${firm.email}.`,
      ]);
      // One outcome at a time: the success toast of the first send is gone.
      expect(await page.locator('.toast').count()).toBe(1);
      expect(await page.locator('#contact-message').inputValue()).toBe('Tweede bericht, kort daarna.');
      expect(await storedCount()).toBe(1);
    }
  });

  it('without scripts gets the form back as typed, says only when sending works again, and how to reach the firm now', async () => {
    const { page } = await site.open('/', { javaScriptEnabled: false });
    const before = await storedCount();
    // However the earlier test ended, this visitor has used up its one message after this post.
    let answer: Response | undefined;
    for (const message of ['Zonder scripts, eerste.', 'Zonder scripts, tweede.']) {
      await page.goto(site.url('/'));
      await fill(page, message);
      const posted = page.waitForResponse((response) => response.url().endsWith(API_PATH) && response.request().method() === 'POST');
      await page.getByRole('button', { name: contactForm.submit }).click();
      answer = await posted;
      await page.waitForLoadState('load');
    }
    expect(answer!.status()).toBe(429);
    expect(page.url()).toBe(site.url(API_PATH));
    expect(asRead(await page.getByRole('heading', { level: 1 }).textContent())).toBe(refusedPost.headline);
    const minutes = Math.ceil(Number(answer!.headers()['retry-after']) / 60);
    expect(minutes).toBeLessThanOrEqual(visitorLimitFrom(CDK_JSON_CONTEXT).windowMinutes);
    expect(await page.locator('.status-text').first().textContent()).toBe(visitorLimitSentence(minutes));
    // One true thing: not the generic failure beside it.
    expect(await page.getByText(contactForm.messages.failure).count()).toBe(0);
    expect(await page.locator('#contact-message').inputValue()).toBe('Zonder scripts, tweede.');
    const main = page.getByRole('main');
    expect(await main.getByRole('link', { name: firm.phone }).getAttribute('href')).toBe(phoneHref);
    expect(await main.getByRole('link', { name: firm.email }).getAttribute('href')).toBe(`mailto:${firm.email}`);
    expect(await storedCount()).toBeLessThanOrEqual(before + 1);
  });
});
