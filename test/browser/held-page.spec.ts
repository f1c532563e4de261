/**
 * The firm's page of held messages (decision 0048) as the office meets it, in Chromium on a
 * phone and a desktop against the local stack with a mail budget of one an hour: the digest's
 * link opens the page under the site's CSP, with no accessibility violation; a message is
 * released from it with one button, without scripts, and reaches the firm with the visitor's
 * Reply-To.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { FORM_CONTENT_TYPE } from '@site/core/contract';
import { HELD_PAGE_TEXT } from '@site/core/content/held-page';
import { expect, test, type Site } from './fixtures';
import { on } from './viewports';

test.use({ stackSettings: { mailBudgets: { mailBudget: { perHour: 1, perDay: 10 }, siteMailBudget: { perHour: 1, perDay: 10 } } } });

const VISITORS = [
  ['Anna de Boer', 'anna@deboer.example', 'Wij zoeken per februari een interim-controller voor drie dagen per week. Kunt u bellen?'],
  ['Pieter Jansen', 'pieter@jansen-bouw.example', 'Graag een gesprek over de jaarafsluiting en de rapportage aan de bank.'],
  ['Sanne Visser', 'sanne@visser-holding.example', 'Onze administratie loopt achter.\nKunnen we deze week kennismaken?'],
] as const;

/** Three posts of the site's form without scripts, the first e-mailed and the rest held for the budget; then the digest's link. */
async function heldWithDigest(site: Site): Promise<string> {
  for (const [name, email, message] of VISITORS) {
    const response = await fetch(site.url('/api/send-contact-email'), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': FORM_CONTENT_TYPE, origin: site.url('').replace(/\/$/, ''), 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ name, email, phone: '', company: '', message }).toString(),
    });
    expect(response.status).toBe(303);
  }
  await site.stack.retryJob({ minAgeMs: 0 });
  const digest = (await site.sentEmails()).at(-1)!;
  const link = digest.body.text!.match(/http:\/\/\S+\/api\/held\?\S+/)?.[0];
  expect(link, digest.body.text).toBeDefined();
  return link!;
}

test.describe('the page of held messages', () => {
  test(
    'opens from the digest’s link with no accessibility violation, and looks like the site',
    { tag: on('phone', 'desktop') },
    async ({ page, site }, testInfo) => {
      const link = await heldWithDigest(site);
      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1, name: HELD_PAGE_TEXT.title })).toBeVisible();
      // The first was e-mailed within the budget; the other two wait on the page.
      await expect(page.getByRole('listitem')).toHaveCount(VISITORS.length - 1);
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      // Nothing sideways on a phone: every message's text wraps within the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: testInfo.outputPath('held-page.png'), fullPage: true });
    },
  );

  test.describe('without scripts', () => {
    test.use({ javaScriptEnabled: false });

    test(
      'releases a message with one button: it reaches the firm with the visitor’s Reply-To',
      { tag: on('phone', 'desktop') },
      async ({ page, site }, testInfo) => {
        const link = await heldWithDigest(site);
        await page.goto(link);
        const sanne = page.getByRole('listitem').filter({ hasText: 'Sanne Visser' });
        const before = (await site.sentEmails()).length;
        await sanne.getByRole('button', { name: HELD_PAGE_TEXT.release }).click();
        await expect(page.getByRole('status')).toContainText('is doorgestuurd als gewone e-mail');
        await expect(page.getByRole('listitem').filter({ hasText: 'Sanne Visser' })).toHaveCount(0);
        const sent = (await site.sentEmails()).slice(before);
        expect(sent).toEqual([expect.objectContaining({ replyTo: ['sanne@visser-holding.example'] })]);
        await page.screenshot({ path: testInfo.outputPath('held-page-released.png'), fullPage: true });
      },
    );

    test('shows nothing of any message for a changed link', async ({ page, site }) => {
      const link = await heldWithDigest(site);
      await page.goto(`${link.slice(0, -2)}xx`);
      await expect(page.getByRole('heading', { level: 1, name: HELD_PAGE_TEXT.linkInvalid.title })).toBeVisible();
      await expect(page.getByText('Sanne Visser')).toHaveCount(0);
    });
  });
});
