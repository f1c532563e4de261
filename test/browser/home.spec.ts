/**
 * The home page in Chromium, served by the local edge: the header, the anchors and the menu,
 * the parallax, the reveal and the rotating expertise terms, where the toasts show, reduced
 * motion, the page without JavaScript, and no sideways scrolling at any width.
 */
import { contact, contactForm, expertise, nav, servicesSection } from '@site/frontend/content/site';
import { EXPERTISE_FADE_MS, EXPERTISE_INTERVAL_MS } from '@site/frontend/expertise-rotation';
import {
  expect,
  expectMenuOpen,
  expectScrolledTo,
  nextFrames,
  open,
  runClockUntil,
  scrollInstantly,
  scrollThrough,
  stopClock,
  test,
} from './fixtures';
import { on, SCREENS } from './viewports';

test.describe('home page in Chromium, served by the local edge', () => {
  test('turns the header solid past 10 px and transparent again at the top', async ({ page }) => {
    await open(page, '/');
    const header = page.locator('header.site-header');
    // Scroll events reach React a frame later: what the header is not, it is not two frames on.
    await scrollInstantly(page, 10);
    await nextFrames(page);
    await expect(header).not.toContainClass('is-scrolled');
    await scrollInstantly(page, 11);
    await expect(header).toContainClass('is-scrolled');
    // Solid means white: the background is no longer transparent.
    await expect(header).toHaveCSS('background-color', /^rgba?\(255, 255, 255/);
    await scrollInstantly(page, 0);
    await expect(header).not.toContainClass('is-scrolled');
  });

  test('scrolls smoothly to a section and stops 80 px above it, also when opened with a #hash', async ({ page, newPage }) => {
    await open(page, '/');
    await expect(page.locator('html')).toHaveCSS('scroll-behavior', 'smooth');
    const links = [
      ['Diensten', 'services'],
      ['Over ons', 'about'],
      ['Contact', 'contact'],
    ] as const;
    for (const [label, id] of links) {
      await page.getByRole('navigation', { name: nav.label }).getByRole('link', { name: label, exact: true }).click();
      await expectScrolledTo(page, id);
    }

    const opened = await newPage();
    await open(opened, '/#services');
    await expectScrolledTo(opened, 'services');
    await expect(opened.locator('header.site-header')).toContainClass('is-scrolled');
  });

  test('opens and closes the mobile menu; a link, Escape and a wider window close it', { tag: on('phone') }, async ({ page, newPage }) => {
    await open(page, '/');
    const button = page.getByRole('button', { name: nav.menuButton });
    const diensten = page.locator('#site-menu').getByRole('link', { name: 'Diensten' });
    await expect(button).toBeVisible();
    await expect(diensten).toBeHidden();

    await button.click();
    await expectMenuOpen(page, true);
    await expect(diensten).toBeVisible();
    await button.click();
    await expectMenuOpen(page, false);
    await expect(diensten).toBeHidden();

    await button.click();
    await diensten.click();
    await expectMenuOpen(page, false);
    await expectScrolledTo(page, 'services');

    // Escape closes it too, and leaves the keyboard on the button.
    await button.click();
    await expectMenuOpen(page, true);
    await page.keyboard.press('Escape');
    await expectMenuOpen(page, false);
    await expect(button).toBeFocused();

    // Widened past the phone's layout, the links stand in the header's row and the menu is shut.
    await button.click();
    await expectMenuOpen(page, true);
    await page.setViewportSize(SCREENS.desktop.viewport);
    await expect(page.locator('#site-menu:popover-open')).toHaveCount(0);
    await expect(diensten).toBeVisible();
    await expect(button).toBeHidden();

    const desktop = await newPage(SCREENS.desktop);
    await open(desktop, '/');
    await expect(desktop.getByRole('button', { name: nav.menuButton })).toBeHidden();
  });

  test(
    'keeps the page behind the open mobile menu still, and closes the menu on a tap outside it',
    { tag: on('phone') },
    async ({ page }) => {
      await open(page, '/');
      await scrollInstantly(page, 1200);
      const button = page.getByRole('button', { name: nav.menuButton });
      await button.click();
      await expectMenuOpen(page, true);

      await page.mouse.move(195, 600);
      await page.mouse.wheel(0, 800);
      // A tap on the menu itself (its padding, not a link) does not close it.
      const menu = (await page.locator('#site-menu').boundingBox())!;
      await page.touchscreen.tap(menu.x + menu.width / 2, menu.y + 4);
      await expectMenuOpen(page, true);
      // That nothing moves is seen only over time: the wheel's smooth scroll, had it been let
      // through, would have moved the page well within this.
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => window.scrollY)).toBe(1200);

      // Below the menu: the dimmed page. The tap closes the menu and reaches nothing beneath it.
      const url = page.url();
      await page.touchscreen.tap(195, menu.y + menu.height + 200);
      await expectMenuOpen(page, false);
      expect(page.url()).toBe(url);
      await page.mouse.wheel(0, 400);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1200);
    },
  );

  test('moves the hero image with the mouse by at most 10 px each way', async ({ page }) => {
    await open(page, '/');
    const offset = () =>
      page.locator('.hero-visual').evaluate((el) => {
        const matrix = new DOMMatrixReadOnly(getComputedStyle(el).transform);
        return [matrix.m41, matrix.m42];
      });
    const seen: number[] = [];
    const settlesAt = async (x: number, y: number, expected: [number, number]) => {
      await page.mouse.move(x, y);
      await expect
        .poll(async () => {
          const [dx, dy] = await offset();
          seen.push(dx!, dy!);
          return Math.abs(dx! - expected[0]) < 0.2 && Math.abs(dy! - expected[1]) < 0.2;
        })
        .toBe(true);
    };
    await settlesAt(0, 0, [-10, -10]);
    await settlesAt(1439, 899, [9.99, 9.99]);
    await settlesAt(720, 450, [0, 0]);
    // Every position on the way, transitions included, stayed within 10 px.
    expect(Math.max(...seen.map(Math.abs))).toBeLessThanOrEqual(10);
  });

  test('keeps elements below the fold hidden until 10 % of them is in view, then fades them in', async ({ page }) => {
    await open(page, '/');
    const card = page.locator('.role-card').first();
    await expect(card).toHaveAttribute('data-reveal', 'hidden');
    await expect(card).toHaveCSS('opacity', '0');
    // The hero, in view at load, is never hidden.
    await expect(page.locator('#home [data-reveal]')).toHaveCount(0);

    await card.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
    await expect(card).toHaveAttribute('data-reveal', 'shown');
    await expect(card).toHaveCSS('opacity', '1');
  });

  test('hides every revealed part at once and shows each with a fade', async ({ page }) => {
    await open(page, '/');
    // Hiding is never a fade: a part hidden out of view at hydration would be half-transparent
    // for the fade's length to whatever reads the page (axe judged contrast so on a busy run).
    // Showing is, for every part, cards with a hover of their own included.
    const parts = await page.locator('[data-reveal]').evaluateAll((elements) =>
      elements.map((el) => {
        const fading = () => el.getAnimations().some((a) => a instanceof CSSTransition && a.transitionProperty === 'opacity');
        el.dataset.reveal = 'shown';
        el.getAnimations().forEach((a) => a.finish());
        el.dataset.reveal = 'hidden';
        const onHiding = { opacity: getComputedStyle(el).opacity, fading: fading() };
        el.dataset.reveal = 'shown';
        // Reading the style starts the transition the change calls for.
        void getComputedStyle(el).opacity;
        return { part: el.className, onHiding, fadesIn: fading() };
      }),
    );
    expect(parts.length).toBeGreaterThan(5);
    for (const part of parts) expect(part).toEqual({ part: part.part, onHiding: { opacity: '0', fading: false }, fadesIn: true });
  });

  test('rotates the expertise terms in order from the first, with a pause button that stops them', async ({ page }) => {
    await stopClock(page);
    await page.goto('/');
    const shown = page.locator('.expertise-term[data-active]');
    await expect(shown).toHaveText(expertise[0]);
    await runClockUntil(page, async () => expect(await shown.textContent()).toBe(expertise[1]));
    const pause = page.getByRole('button', { name: contact.pauseRotation });
    await expect(pause).toBeVisible();
    await pause.click();
    await expect(pause).toHaveAttribute('aria-pressed', 'true');
    await page.clock.runFor(3 * (EXPERTISE_INTERVAL_MS + EXPERTISE_FADE_MS));
    await expect(shown).toHaveText(expertise[1]);
  });

  test('shows toasts in the top right corner, below the header', { tag: on('tablet', 'desktop') }, async ({ page }) => {
    await open(page, '/');
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: contactForm.submit }).click();
    const toast = page.getByRole('alert');
    await expect(toast).toHaveText('Vul alle verplichte velden in.');
    const width = page.viewportSize()!.width;
    const box = (await toast.boundingBox())!;
    expect(width - (box.x + box.width)).toBeLessThanOrEqual(24);
    expect(box.y).toBeGreaterThanOrEqual(72);
    expect(box.y).toBeLessThan(120);
    expect(await toast.evaluate((el) => getComputedStyle(el.parentElement!).position)).toBe('fixed');
  });

  test(
    'shows toasts at the bottom on a phone, across the screen, where they cover nothing the visitor is using',
    { tag: on('phone') },
    async ({ page }) => {
      await open(page, '/');
      await page.locator('#contact').scrollIntoViewIfNeeded();
      await page.getByRole('button', { name: contactForm.submit }).click();
      const toast = page.getByRole('alert');
      await expect(toast).toHaveText('Vul alle verplichte velden in.');
      const box = (await toast.boundingBox())!;
      expect(box.x).toBeLessThanOrEqual(16);
      expect(390 - (box.x + box.width)).toBeLessThanOrEqual(16);
      expect(box.y + box.height).toBeGreaterThan(844 - 40);
      expect(box.y + box.height).toBeLessThanOrEqual(844);
      expect(await toast.evaluate((el) => getComputedStyle(el.parentElement!).position)).toBe('fixed');
    },
  );

  test('runs without console errors, CSP violations or requests to other hosts', async ({ page, newPage, watch }) => {
    await open(page, '/');
    await scrollThrough(page);
    await page.getByRole('tab').last().click();
    await page.keyboard.press('ArrowUp');
    await page.mouse.move(200, 200);
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: contactForm.submit }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    const mobile = await newPage(SCREENS.phone);
    await open(mobile, '/');
    await mobile.getByRole('button', { name: nav.menuButton }).click();
    await expectMenuOpen(mobile, true);
    // Said here as well as at the test's end (where every test's pages are checked), as it is this test's subject.
    expect({ errors: watch.errors, cspViolations: watch.cspViolations, foreignRequests: watch.foreignRequests }).toEqual({
      errors: [],
      cspViolations: [],
      foreignRequests: [],
    });
  });

  for (const width of [320, 1920]) {
    test.describe(() => {
      // Reduced motion: every part where it ends up, without waiting for a fade or a slide.
      test.use({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });

      test(`never scrolls sideways at ${width} px`, async ({ page }) => {
        for (const path of ['/', '/privacy', '/does-not-exist']) {
          await open(page, path);
          await scrollThrough(page);
          if (width === 320 && path === '/') {
            const menu = page.getByRole('button', { name: nav.menuButton });
            const box = (await menu.boundingBox())!;
            expect(box.x + box.width, 'menu button inside the screen').toBeLessThanOrEqual(width);
            await menu.click();
          }
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `${path} at ${width}px`).toBe(0);
        }
      });
    });
  }

  test('offers a skip link as the first tab stop, which moves focus to the content', async ({ page }) => {
    await open(page, '/');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: nav.skipLink });
    await expect(skip).toBeFocused();
    const box = (await skip.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    await expect(page.locator('#main')).toBeFocused();
  });

  test.describe(() => {
    test.use({ reducedMotion: 'reduce' });

    test('turns off smooth scrolling, reveal and parallax for visitors who prefer reduced motion', async ({ page }) => {
      await open(page, '/');
      await expect(page.locator('html')).toHaveCSS('scroll-behavior', 'auto');
      await expect(page.locator('[data-reveal]')).toHaveCount(0);
      const visual = page.locator('.hero-visual');
      await page.mouse.move(0, 0);
      // The parallax sets its transform in the frame after a move: two frames on, there is none.
      await nextFrames(page);
      expect(await visual.evaluate((el) => el.style.transform)).toBe('');
      await expect(visual).toHaveCSS('transform', 'none');
    });
  });

  test.describe(() => {
    test.use({ javaScriptEnabled: false });

    test('shows all content without JavaScript', { tag: on('phone') }, async ({ page }) => {
      await page.goto('/');
      await expect(page.locator('h1')).toHaveText('Finance Professionals Met een streepje voor');
      const mustBeVisible = [
        page.getByRole('navigation', { name: nav.label }).getByRole('link', { name: 'Over ons', exact: true }),
        page.getByRole('heading', { name: 'Professioneel advies en ondersteuning voor uw bedrijf' }),
        page.getByRole('heading', { name: 'Onze filosofie' }),
        page.getByRole('heading', { name: servicesSection.why.headline }),
        page.getByRole('heading', { name: 'Stuur ons een bericht' }),
        page.getByText('Alle rechten voorbehouden'),
        page.locator('.expertise-term[data-active]'),
      ];
      for (const locator of mustBeVisible) await expect(locator).toBeVisible();
      // Nothing rotates without script, so there is no pause button that would do nothing.
      await expect(page.locator('button.expertise-pause')).toHaveCount(1);
      await expect(page.locator('button.expertise-pause')).toBeHidden();
      await expect(page.getByRole('button', { name: contact.pauseRotation })).toHaveCount(0);
      // Every service, not only the first tab.
      const panels = page.locator('.service-panel');
      await expect(panels).toHaveCount(3);
      for (let i = 0; i < 3; i++) await expect(panels.nth(i)).toBeVisible();
      // Nothing rendered is left transparent (the reveal's hidden state needs script).
      const transparent = await page
        .locator('main *')
        .evaluateAll((els) =>
          els.filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).opacity === '0').map((el) => el.className),
        );
      expect(transparent).toEqual([]);
    });
  });

  for (const width of [320, 390, 719]) {
    test.describe(() => {
      test.use({ viewport: { width, height: 844 }, javaScriptEnabled: false });

      test(`keeps the header in the flow above the hero without JavaScript where its links need a row of their own, clear of each other (${width} px)`, async ({
        page,
      }) => {
        await page.goto('/');
        await expect(page.locator('header.site-header')).not.toHaveCSS('position', 'fixed');
        const header = (await page.locator('header.site-header').boundingBox())!;
        const badge = (await page.locator('.hero-badge').boundingBox())!;
        expect(header.y + header.height, 'header ends above the badge').toBeLessThanOrEqual(badge.y);
        const boxes = [
          await page.locator('.header-logo').boundingBox(),
          ...(await Promise.all((await page.locator('.nav-link').all()).map((l) => l.boundingBox()))),
        ];
        expect(boxes).toHaveLength(5);
        for (const [i, a] of boxes.entries()) {
          expect(a!.x + a!.width, 'inside the screen').toBeLessThanOrEqual(width);
          for (const b of boxes.slice(i + 1)) expect(overlap(a!, b!), 'header items overlap').toBe(false);
        }
      });
    });
  }

  for (const width of [320, 390, 768, 1024, 1440, 1920]) {
    test.describe(() => {
      // Reduced motion: the card where it ends up, not part-way through its reveal.
      test.use({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });

      test(`keeps the philosophy card’s stripes clear of its text at ${width} px`, async ({ page }) => {
        await open(page, '/');
        const card = page.locator('.philosophy');
        await card.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
        const { stripes, text } = await card.evaluate((el) => {
          const box = (r: DOMRect) => ({ x: r.x, y: r.y, width: r.width, height: r.height });
          const lines: ReturnType<typeof box>[] = [];
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(node);
            lines.push(...[...range.getClientRects()].map(box));
          }
          // Every line of text, and the boxes of the blocks that hold it (the stricter test).
          const blocks = [...el.querySelectorAll('h3, p, .philosophy-icon')].map((b) => box(b.getBoundingClientRect()));
          return {
            stripes: [...el.querySelectorAll('.philosophy-stripes > span')].map((s) => box(s.getBoundingClientRect())),
            text: [...lines, ...blocks],
          };
        });
        expect(stripes).toHaveLength(2);
        expect(text.length).toBeGreaterThan(6);
        for (const stripe of stripes) {
          expect(stripe.width * stripe.height).toBeGreaterThan(0);
          for (const t of text) expect(overlap(stripe, t), `stripe ${JSON.stringify(stripe)} meets text ${JSON.stringify(t)}`).toBe(false);
        }
      });
    });
  }
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** True when two boxes share any area (touching edges do not count). */
function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
