import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClockUntil, scrollInstantly, scrollSettled, scrollThrough, startSite, type Site } from './support';
import { contact, contactForm, expertise, nav, servicesSection } from '@site/frontend/content/site';
import { EXPERTISE_FADE_MS, EXPERTISE_INTERVAL_MS } from '@site/frontend/expertise-rotation';
import { asRead } from '@site/testing/as-read';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site?.close());

const MOBILE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

describe('home page in Chromium, served by the local edge', () => {
  it('turns the header solid past 10 px and transparent again at the top', async () => {
    const { page } = await site.open('/');
    const header = page.locator('header.site-header');
    const solidAt = async (y: number) => {
      await scrollInstantly(page, y);
      await page.waitForFunction((top) => window.scrollY === top, y);
      return header.evaluate((el) => el.classList.contains('is-scrolled'));
    };
    // Scroll events reach React a frame later: poll rather than sleep.
    await expect.poll(() => solidAt(10)).toBe(false);
    await expect.poll(() => solidAt(11)).toBe(true);
    // Solid means white: the background is no longer transparent.
    await expect.poll(() => header.evaluate((el) => getComputedStyle(el).backgroundColor)).toMatch(/^rgba\(255, 255, 255/);
    await expect.poll(() => solidAt(0)).toBe(false);
  });

  it('scrolls smoothly to a section and stops 80 px above it, also when opened with a #hash', async () => {
    const { page } = await site.open('/');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('smooth');
    const links = [
      ['Diensten', 'services'],
      ['Over ons', 'about'],
      ['Contact', 'contact'],
    ] as const;
    for (const [label, id] of links) {
      await page.getByRole('navigation', { name: nav.label }).getByRole('link', { name: label, exact: true }).click();
      await scrollSettled(page);
      const top = await page.evaluate((sectionId) => document.getElementById(sectionId)!.getBoundingClientRect().top, id);
      expect(Math.abs(top - 80), `${id} top is ${top}`).toBeLessThanOrEqual(1);
    }

    const opened = await site.open('/#services');
    await scrollSettled(opened.page);
    const top = await opened.page.evaluate(() => document.getElementById('services')!.getBoundingClientRect().top);
    expect(Math.abs(top - 80)).toBeLessThanOrEqual(1);
    expect(await opened.page.locator('header.site-header').getAttribute('class')).toContain('is-scrolled');
  });

  it('opens and closes the mobile menu; a link click closes it', async () => {
    const { page } = await site.open('/', MOBILE);
    const button = page.getByRole('button', { name: nav.menuButton });
    const diensten = page.locator('#site-menu').getByRole('link', { name: 'Diensten' });
    await expect.poll(() => button.isVisible()).toBe(true);
    expect(await diensten.isVisible()).toBe(false);

    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await diensten.isVisible()).toBe(true);
    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await diensten.isVisible()).toBe(false);

    await button.click();
    await diensten.click();
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await scrollSettled(page);
    const top = await page.evaluate(() => document.getElementById('services')!.getBoundingClientRect().top);
    expect(Math.abs(top - 80)).toBeLessThanOrEqual(1);

    const desktop = await site.open('/');
    expect(await desktop.page.getByRole('button', { name: nav.menuButton }).isVisible()).toBe(false);
  });

  it('keeps the page behind the open mobile menu still, and closes the menu on a tap outside it (390 px)', async () => {
    const { page } = await site.open('/', MOBILE);
    await scrollInstantly(page, 1200);
    const button = page.getByRole('button', { name: nav.menuButton });
    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');

    await page.mouse.move(195, 600);
    await page.mouse.wheel(0, 800);
    // A tap on the menu itself (its padding, not a link) does not close it.
    const menu = (await page.locator('#site-menu').boundingBox())!;
    await page.touchscreen.tap(menu.x + menu.width / 2, menu.y + 4);
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.scrollY)).toBe(1200);

    // Below the menu: the dimmed page. The tap closes the menu and reaches nothing beneath it.
    const url = page.url();
    await page.touchscreen.tap(195, menu.y + menu.height + 200);
    await expect.poll(() => button.getAttribute('aria-expanded')).toBe('false');
    expect(page.url()).toBe(url);
    await page.mouse.wheel(0, 400);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1200);
  });

  it('moves the hero image with the mouse by at most 10 px each way', async () => {
    const { page } = await site.open('/');
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

  it('keeps elements below the fold hidden until 10 % of them is in view, then fades them in', async () => {
    const { page } = await site.open('/');
    const card = page.locator('.role-card').first();
    expect(await card.getAttribute('data-reveal')).toBe('hidden');
    expect(await card.evaluate((el) => getComputedStyle(el).opacity)).toBe('0');
    // The hero, in view at load, is never hidden.
    expect(await page.locator('[data-reveal]').evaluateAll((els) => els.filter((el) => el.closest('#home')).length)).toBe(0);

    await card.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
    await expect.poll(() => card.getAttribute('data-reveal')).toBe('shown');
    await expect.poll(() => card.evaluate((el) => getComputedStyle(el).opacity), { timeout: 5000 }).toBe('1');
  });

  it('hides every revealed part at once and shows each with a fade', async () => {
    const { page } = await site.open('/');
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

  it('rotates the expertise terms in order from the first, with a pause button that stops them', async () => {
    const { page } = await site.open('/', {}, { stoppedClock: true });
    const shown = () => page.locator('.expertise-term[data-active]').textContent();
    expect(await shown()).toBe(expertise[0]);
    await runClockUntil(page, async () => (await shown()) === expertise[1]);
    const pause = page.getByRole('button', { name: contact.pauseRotation });
    expect(await pause.isVisible()).toBe(true);
    await pause.click();
    expect(await pause.getAttribute('aria-pressed')).toBe('true');
    await page.clock.runFor(3 * (EXPERTISE_INTERVAL_MS + EXPERTISE_FADE_MS));
    expect(await shown()).toBe(expertise[1]);
  });

  it.each([
    ['1440', { viewport: { width: 1440, height: 900 } }, 1440],
    ['768', { viewport: { width: 768, height: 1024 } }, 768],
  ] as const)('shows toasts in the top right corner, below the header (%s px)', async (_, options, width) => {
    const { page } = await site.open('/', options);
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: contactForm.submit }).click();
    const toast = page.getByRole('alert');
    await expect.poll(() => toast.textContent()).toBe('Vul alle verplichte velden in.');
    const box = (await toast.boundingBox())!;
    expect(width - (box.x + box.width)).toBeLessThanOrEqual(24);
    expect(box.y).toBeGreaterThanOrEqual(72);
    expect(box.y).toBeLessThan(120);
    expect(await toast.evaluate((el) => getComputedStyle(el.parentElement!).position)).toBe('fixed');
  });

  it('shows toasts at the bottom on a phone, across the screen, where they cover nothing the visitor is using', async () => {
    const { page } = await site.open('/', MOBILE);
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: contactForm.submit }).click();
    const toast = page.getByRole('alert');
    await expect.poll(() => toast.textContent()).toBe('Vul alle verplichte velden in.');
    const box = (await toast.boundingBox())!;
    expect(box.x).toBeLessThanOrEqual(16);
    expect(390 - (box.x + box.width)).toBeLessThanOrEqual(16);
    expect(box.y + box.height).toBeGreaterThan(844 - 40);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    expect(await toast.evaluate((el) => getComputedStyle(el.parentElement!).position)).toBe('fixed');
  });

  it('runs without console errors, CSP violations or requests to other hosts', async () => {
    const watched = await site.open('/');
    const { page } = watched;
    await scrollThrough(page);
    await page.getByRole('tab').last().click();
    await page.keyboard.press('ArrowUp');
    await page.mouse.move(200, 200);
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: contactForm.submit }).click();
    await page.getByRole('alert').waitFor();
    const mobile = await site.open('/', MOBILE);
    await mobile.page.getByRole('button', { name: nav.menuButton }).click();
    for (const w of [watched, mobile]) {
      expect(w.errors).toEqual([]);
      expect(await w.cspViolations()).toEqual([]);
      expect(w.foreignRequests).toEqual([]);
    }
  });

  it.each([320, 1920])('never scrolls sideways at %i px', async (width) => {
    for (const path of ['/', '/privacy', '/does-not-exist']) {
      // Reduced motion: every part where it ends up, without waiting for a fade or a slide.
      const { page } = await site.open(path, { viewport: { width, height: 900 }, reducedMotion: 'reduce' });
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

  it('offers a skip link as the first tab stop, which moves focus to the content', async () => {
    const { page } = await site.open('/');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: nav.skipLink });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    const box = (await skip.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
  });

  it('turns off smooth scrolling, reveal and parallax for visitors who prefer reduced motion', async () => {
    const { page } = await site.open('/', { reducedMotion: 'reduce' });
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('auto');
    expect(await page.locator('[data-reveal]').count()).toBe(0);
    await page.mouse.move(0, 0);
    await page.waitForTimeout(400);
    expect(await page.locator('.hero-visual').evaluate((el) => getComputedStyle(el).transform)).toBe('none');
  });

  it('shows all content without JavaScript', async () => {
    const { page } = await site.open('/', { ...MOBILE, javaScriptEnabled: false });
    expect(asRead(await page.locator('h1').textContent())).toBe('Finance Professionals Met een streepje voor');
    const mustBeVisible = [
      page.getByRole('navigation', { name: nav.label }).getByRole('link', { name: 'Over ons', exact: true }),
      page.getByRole('heading', { name: 'Professioneel advies en ondersteuning voor uw bedrijf' }),
      page.getByRole('heading', { name: 'Onze filosofie' }),
      page.getByRole('heading', { name: servicesSection.why.headline }),
      page.getByRole('heading', { name: 'Stuur ons een bericht' }),
      page.getByText('Alle rechten voorbehouden'),
      page.locator('.expertise-term[data-active]'),
    ];
    for (const locator of mustBeVisible) expect(await locator.isVisible()).toBe(true);
    // Nothing rotates without script, so there is no pause button that would do nothing.
    expect(await page.locator('button.expertise-pause').count()).toBe(1);
    expect(await page.locator('button.expertise-pause').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: contact.pauseRotation }).count()).toBe(0);
    // Every service, not only the first tab.
    const panels = page.locator('.service-panel');
    expect(await panels.count()).toBe(3);
    for (let i = 0; i < 3; i++) expect(await panels.nth(i).isVisible()).toBe(true);
    // Nothing rendered is left transparent (the reveal's hidden state needs script).
    const transparent = await page
      .locator('main *')
      .evaluateAll((els) =>
        els.filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).opacity === '0').map((el) => el.className),
      );
    expect(transparent).toEqual([]);
  });

  it.each([320, 390, 719])(
    'keeps the header in the flow above the hero without JavaScript where its links need a row of their own, clear of each other (%i px)',
    async (width) => {
      const { page } = await site.open('/', { viewport: { width, height: 844 }, javaScriptEnabled: false });
      expect(await page.locator('header.site-header').evaluate((el) => getComputedStyle(el).position)).not.toBe('fixed');
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
    },
  );

  it.each([320, 390, 768, 1024, 1440, 1920])('keeps the philosophy card’s stripes clear of its text at %i px', async (width) => {
    // Reduced motion: the card where it ends up, not part-way through its reveal.
    const { page } = await site.open('/', { viewport: { width, height: 900 }, reducedMotion: 'reduce' });
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
