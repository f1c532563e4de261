/**
 * A phone in the hand, in Chromium against the local stack: every footer link a target of at
 * least 24 × 24 px (WCAG 2.2, 2.5.8), and a way to call or mail in reach at the bottom of the
 * screen from the end of the hero to the contact section, with and without scripts.
 */
import type { Locator, Page } from '@playwright/test';
import { FORM_RESULT_PAGES } from '@site/core/contract';
import { callBar, emailHref, firm, phoneHref } from '@site/frontend/content/site';
import { expect, open, scrollInstantly, test } from './fixtures';
import { on, SCREENS } from './viewports';

const HOME_INDICATOR_PX = 34;
/** WCAG 2.2, 2.5.8 Target Size (Minimum). */
const MIN_TARGET_PX = 24;

test.describe('footer links', () => {
  for (const javaScriptEnabled of [true, false]) {
    test.describe(() => {
      test.use({ javaScriptEnabled });

      test(
        `are each a target of at least 24 × 24 px (JavaScript ${javaScriptEnabled})`,
        { tag: javaScriptEnabled ? on('phone', 'desktop') : on('phone') },
        async ({ page }) => {
          for (const path of ['/', '/privacy', FORM_RESULT_PAGES.sent]) {
            await (javaScriptEnabled ? open(page, path) : page.goto(path));
            const links = await page.locator('footer a').evaluateAll((anchors) =>
              anchors.map((anchor) => {
                const { width, height } = anchor.getBoundingClientRect();
                return { link: anchor.textContent, width, height };
              }),
            );
            expect(links.length, path).toBeGreaterThanOrEqual(7);
            expect(
              links.filter(({ width, height }) => width < MIN_TARGET_PX || height < MIN_TARGET_PX),
              path,
            ).toEqual([]);
          }
        },
      );
    });
  }
});

/** The bar's box, and whether a visitor sees it: rendered, not hidden, not faded out. */
function barState(bar: Locator) {
  return bar.evaluate((element) => {
    const { top, bottom, height } = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return {
      top,
      bottom,
      height,
      seen: height > 0 && style.visibility === 'visible' && Number(style.opacity) > 0.5 && bottom > 0 && top < innerHeight,
    };
  });
}

const sectionTop = (page: Page, id: string) =>
  page.evaluate((section) => document.getElementById(section)!.getBoundingClientRect().top + scrollY, id);

test.describe('the call bar', () => {
  for (const javaScriptEnabled of [true, false]) {
    test.describe(() => {
      test.use({ javaScriptEnabled });

      test(
        `stays at the bottom of a phone’s screen from the end of the hero to the contact section, above the home indicator (JavaScript ${javaScriptEnabled})`,
        { tag: on('phone') },
        async ({ page }) => {
          await (javaScriptEnabled ? open(page, '/') : page.goto('/'));
          const cdp = await page.context().newCDPSession(page);
          await cdp.send('Emulation.setSafeAreaInsetsOverride', { insets: { bottom: HOME_INDICATOR_PX, bottomMax: HOME_INDICATOR_PX } });
          const bar = page.locator('.call-bar');
          const seen = async () => (await barState(bar)).seen;

          // Over the hero, which has buttons of its own: not there yet.
          expect(await seen()).toBe(false);

          for (const [section, into] of [
            ['about', 100],
            ['about', 900],
            ['services', 400],
            ['services', 1500],
          ] as const) {
            await scrollInstantly(page, (await sectionTop(page, section)) + into);
            // The fade follows the scroll on the next frame.
            await expect.poll(seen, { message: `${section} + ${into}` }).toBe(true);
            expect(Math.round((await barState(bar)).bottom), `${section} + ${into}`).toBe(844);
          }
          // Its buttons are full targets above the home indicator, and say what they do.
          const group = page.getByRole('group', { name: callBar.label });
          const call = group.getByRole('link', { name: `${callBar.call} ${firm.phone}` });
          const mail = group.getByRole('link', { name: `${callBar.mail} ${firm.email}` });
          await expect(call).toHaveAttribute('href', phoneHref);
          await expect(mail).toHaveAttribute('href', emailHref);
          for (const link of [call, mail]) {
            const box = (await link.boundingBox())!;
            expect(box.height).toBeGreaterThanOrEqual(44);
            expect(box.width).toBeGreaterThanOrEqual(44);
            expect(box.y + box.height).toBeLessThanOrEqual(844 - HOME_INDICATOR_PX);
          }

          // With the contact section in view it is gone, so it never covers the form, its
          // fields, its button or its toasts; also with a field in use (the keyboard up).
          for (const into of [-500, -200, 300, 1200]) {
            await scrollInstantly(page, (await sectionTop(page, 'contact')) + into);
            await expect.poll(seen, { message: `contact ${into}` }).toBe(false);
          }
          await page.locator('#contact-name').focus();
          await expect(page.locator('#contact-name')).toBeInViewport();
          await expect.poll(seen).toBe(false);
          // Nor in the footer, which has the details itself.
          await scrollInstantly(page, 100_000);
          await expect.poll(seen).toBe(false);
        },
      );
    });
  }

  test('is not on a wide screen, nor on paper', async ({ page, newPage }) => {
    await open(page, '/');
    await scrollInstantly(page, (await sectionTop(page, 'services')) + 200);
    await expect(page.locator('.call-bar')).toBeHidden();
    const phone = await newPage(SCREENS.phone);
    await open(phone, '/');
    await scrollInstantly(phone, (await sectionTop(phone, 'services')) + 200);
    await expect(phone.locator('.call-bar')).toBeVisible();
    await phone.emulateMedia({ media: 'print' });
    await expect(phone.locator('.call-bar')).toBeHidden();
  });
});
