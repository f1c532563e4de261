import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { retentionDaysFrom } from '@site/core/node/deploy-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactForm, nav, SITE_ORIGIN } from '@site/frontend/content/site';
import { scrollInstantly, scrollSettled, startSite, type Site } from './support';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site?.close());

const MOBILE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

describe('privacy statement at /privacy, served by the local edge', () => {
  it('answers 200 with the prerendered statement and the retention the stack is configured with', async () => {
    for (const path of ['/privacy', '/privacy.html']) {
      const response = await fetch(site.url(path));
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await response.text();
      expect(html).toContain('<div id="root" data-route="privacy">');
      expect(html).toContain('<h1 class="privacy-title">Privacyverklaring</h1>');
      expect(html).toContain(`data-retention-days="${retentionDaysFrom(CDK_JSON_CONTEXT)}"`);
      expect(html).toContain(`<link rel="canonical" href="${SITE_ORIGIN}/privacy" />`);
    }
  });

  it('is listed in the sitemap', async () => {
    const sitemap = await (await fetch(site.url('/sitemap.xml'))).text();
    expect(sitemap).toContain(`<loc>${SITE_ORIGIN}/privacy</loc>`);
  });

  it('is linked from the footer and from the contact form’s note', async () => {
    const fromFooter = await site.open('/');
    await fromFooter.page.getByRole('contentinfo').getByRole('link', { name: 'Privacyverklaring' }).click();
    await fromFooter.page.waitForURL(site.url('/privacy'));
    expect(await fromFooter.page.getByRole('heading', { level: 1 }).textContent()).toBe('Privacyverklaring');

    const fromForm = await site.open('/', MOBILE);
    const note = fromForm.page.locator('.contact-form').getByText(contactForm.privacy);
    await note.getByRole('link', { name: contactForm.privacyLink.label }).click();
    await fromForm.page.waitForURL(site.url('/privacy'));
    expect(await fromForm.page.getByRole('heading', { level: 1 }).textContent()).toBe('Privacyverklaring');
  });

  it('hydrates: the header turns solid on scroll and the mobile menu leads back to the home page’s sections', async () => {
    const watched = await site.open('/privacy', MOBILE);
    const { page } = watched;
    const header = page.locator('header.site-header');
    await scrollInstantly(page, 400);
    await expect.poll(() => header.getAttribute('class')).toContain('is-scrolled');
    await page.getByRole('button', { name: nav.menuButton }).click();
    await page.locator('#site-menu').getByRole('link', { name: 'Diensten' }).click();
    await page.waitForURL(site.url('/#services'));
    expect(watched.errors).toEqual([]);
    expect(await watched.cspViolations()).toEqual([]);
    expect(watched.foreignRequests).toEqual([]);
  });

  it('jumps from the contents to a section, below the fixed header', async () => {
    const { page } = await site.open('/privacy');
    // A section in the middle of the statement, whatever the content calls it.
    const link = page.getByRole('navigation', { name: 'Op deze pagina' }).getByRole('link').nth(2);
    const id = (await link.getAttribute('href'))!.split('#')[1]!;
    await link.click();
    await page.waitForURL(site.url(`/privacy#${id}`));
    await scrollSettled(page);
    const top = await page.evaluate((section) => document.getElementById(section)!.getBoundingClientRect().top, id);
    expect(Math.abs(top - 80)).toBeLessThanOrEqual(1);
  });

  it('reads well without JavaScript: the header in the flow, above the title, with its links', async () => {
    const { page } = await site.open('/privacy', { ...MOBILE, javaScriptEnabled: false });
    const header = (await page.locator('header.site-header').boundingBox())!;
    const breadcrumb = (await page.getByRole('navigation', { name: 'Kruimelpad' }).boundingBox())!;
    expect(header.y + header.height).toBeLessThanOrEqual(breadcrumb.y);
    expect(await page.getByRole('navigation', { name: nav.label }).getByRole('link', { name: 'Contact' }).isVisible()).toBe(true);
    expect(await page.locator('[data-retention-days]').first().isVisible()).toBe(true);
  });
});
