import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { retentionDaysFrom } from '@site/core/node/deploy-config';
import { contactForm, nav, SITE_ORIGIN } from '@site/frontend/content/site';
import { expect, expectScrolledTo, open, scrollInstantly, test } from './fixtures';
import { on, SCREENS } from './viewports';

test.describe('privacy statement at /privacy, served by the local edge', () => {
  test('answers 200 with the prerendered statement and the retention the stack is configured with', async ({ site }) => {
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

  test('is listed in the sitemap', async ({ site }) => {
    const sitemap = await (await fetch(site.url('/sitemap.xml'))).text();
    expect(sitemap).toContain(`<loc>${SITE_ORIGIN}/privacy</loc>`);
  });

  test('is linked from the footer and from the contact form’s note', async ({ page, newPage }) => {
    await open(page, '/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacyverklaring' }).click();
    await expect(page).toHaveURL('/privacy');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacyverklaring');

    const fromForm = await newPage(SCREENS.phone);
    await open(fromForm, '/');
    const note = fromForm.locator('.contact-form').getByText(contactForm.privacy);
    await note.getByRole('link', { name: contactForm.privacyLink.label }).click();
    await expect(fromForm).toHaveURL('/privacy');
    await expect(fromForm.getByRole('heading', { level: 1 })).toHaveText('Privacyverklaring');
  });

  test(
    'hydrates: the header turns solid on scroll and the mobile menu leads back to the home page’s sections',
    { tag: on('phone') },
    async ({ page }) => {
      await open(page, '/privacy');
      await scrollInstantly(page, 400);
      await expect(page.locator('header.site-header')).toContainClass('is-scrolled');
      await page.getByRole('button', { name: nav.menuButton }).click();
      await page.locator('#site-menu').getByRole('link', { name: 'Diensten' }).click();
      await expect(page).toHaveURL('/#services');
    },
  );

  test('jumps from the contents to a section, below the fixed header', async ({ page }) => {
    await open(page, '/privacy');
    // A section in the middle of the statement, whatever the content calls it.
    const link = page.getByRole('navigation', { name: 'Op deze pagina' }).getByRole('link').nth(2);
    const id = (await link.getAttribute('href'))!.split('#')[1]!;
    await link.click();
    await expect(page).toHaveURL(`/privacy#${id}`);
    await expectScrolledTo(page, id);
  });

  test.describe(() => {
    test.use({ javaScriptEnabled: false });

    test(
      'reads well without JavaScript: the header in the flow, above the title, with its links',
      { tag: on('phone') },
      async ({ page }) => {
        await page.goto('/privacy');
        const header = (await page.locator('header.site-header').boundingBox())!;
        const breadcrumb = (await page.getByRole('navigation', { name: 'Kruimelpad' }).boundingBox())!;
        expect(header.y + header.height).toBeLessThanOrEqual(breadcrumb.y);
        await expect(page.getByRole('navigation', { name: nav.label }).getByRole('link', { name: 'Contact' })).toBeVisible();
        await expect(page.locator('[data-retention-days]').first()).toBeVisible();
      },
    );
  });
});
