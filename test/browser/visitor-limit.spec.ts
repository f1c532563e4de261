/**
 * The visitor limit as a visitor meets it, in Chromium against the local stack with a limit
 * of one message: the form shows its error toast with when to send again and how to reach the
 * firm, and keeps what was typed; without scripts the post gets the form back with what was
 * typed and the one sentence on when sending works again. Nothing more is stored.
 */
import type { Page, Response } from '@playwright/test';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { visitorLimitFrom } from '@site/core/node/deploy-config';
import { API_PATH } from '@site/core/contract';
import { refusedPost, visitorLimitSentence } from '@site/core/content/refused-post';
import { secondsLeft, windowAt } from '@site/lambda/visitor-limit';
import { contactForm, firm, phoneHref, sentConfirmation } from '@site/frontend/content/site';
import { retryAfterMinutes } from '@site/frontend/retry-after';
import { expect, open, refusedSend, test } from './fixtures';
import { on } from './viewports';

test.use({ stackSettings: { visitorLimit: 1 } });

/** Every test starts well inside a window: one that ends between two sends would count afresh. */
test.beforeEach(async ({}, testInfo) => {
  const windowSeconds = visitorLimitFrom(CDK_JSON_CONTEXT).windowMinutes * 60;
  const left = secondsLeft(windowAt(new Date(), windowSeconds), new Date());
  if (left < 30) {
    // The wait is the window's, not the test's: it gets the time on top.
    testInfo.setTimeout(testInfo.timeout + left * 1000 + 100);
    await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
  }
});

async function fill(page: Page, message: string) {
  await page.locator('#contact-name').fill('Vera Vaker');
  await page.locator('#contact-email').fill('vera@vaker.nl');
  await page.locator('#contact-message').fill(message);
}

test.describe('a visitor over the limit (1 message here)', () => {
  test(
    'gets the form’s error toast alone, saying when to send again and how to reach the firm now, with the fields kept',
    { tag: on('phone', 'desktop') },
    async ({ page, site, watch }) => {
      // The send over the limit, which the browser and the app log.
      watch.allowErrors(refusedSend(429));
      await open(page, '/');
      await page.locator('#contact').scrollIntoViewIfNeeded();
      await fill(page, 'Eerste bericht.');
      await page.getByRole('button', { name: contactForm.submit }).click();
      await expect(page.getByRole('status').getByText(contactForm.messages.success)).toBeVisible();
      expect(await site.storedMessages()).toHaveLength(1);
      await page.getByRole('button', { name: sentConfirmation.another }).click();

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
      await expect(failure.locator('.toast-message')).toHaveText(contactForm.messages.failure);
      await expect(failure.locator('.toast-detail')).toHaveText([
        contactForm.limited.again(minutes),
        `Liever direct contact? Bel ons op ${firm.phone} of mail naar ${firm.email}.`,
      ]);
      // One outcome at a time: the success toast of the first send is gone.
      await expect(page.locator('.toast')).toHaveCount(1);
      await expect(page.locator('#contact-message')).toHaveValue('Tweede bericht, kort daarna.');
      expect(await site.storedMessages()).toHaveLength(1);
    },
  );

  test.describe(() => {
    test.use({ javaScriptEnabled: false });

    test('without scripts gets the form back as typed, says only when sending works again, and how to reach the firm now', async ({
      page,
      site,
    }) => {
      const before = (await site.storedMessages()).length;
      // However the earlier test ended, this visitor has used up its one message after this post.
      let answer: Response | undefined;
      for (const message of ['Zonder scripts, eerste.', 'Zonder scripts, tweede.']) {
        await page.goto('/');
        await fill(page, message);
        const posted = page.waitForResponse((response) => response.url().endsWith(API_PATH) && response.request().method() === 'POST');
        await page.getByRole('button', { name: contactForm.submit }).click();
        answer = await posted;
        await page.waitForLoadState('load');
      }
      expect(answer!.status()).toBe(429);
      await expect(page).toHaveURL(API_PATH);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(refusedPost.headline);
      const minutes = Math.ceil(Number(answer!.headers()['retry-after']) / 60);
      expect(minutes).toBeLessThanOrEqual(visitorLimitFrom(CDK_JSON_CONTEXT).windowMinutes);
      await expect(page.locator('.status-text').first()).toHaveText(visitorLimitSentence(minutes));
      // One true thing: not the generic failure beside it.
      await expect(page.getByText(contactForm.messages.failure)).toHaveCount(0);
      await expect(page.locator('#contact-message')).toHaveValue('Zonder scripts, tweede.');
      const main = page.getByRole('main');
      await expect(main.getByRole('link', { name: firm.phone })).toHaveAttribute('href', phoneHref);
      await expect(main.getByRole('link', { name: firm.email })).toHaveAttribute('href', `mailto:${firm.email}`);
      expect((await site.storedMessages()).length).toBeLessThanOrEqual(before + 1);
    });
  });
});
