/**
 * Where the form's status shows, in Chromium against the local stack with a visitor limit of
 * one message, on a phone and on a wide screen: in each state of the form (fields missing,
 * sending, sent, over the limit) no toast and no header covers the field that has the focus
 * or the form's button; on a phone the toasts sit at the bottom, above the home indicator, on
 * a wide screen at the top right (spec); the sending shows on the button, which keeps the focus.
 */
import type { Page } from '@playwright/test';
import { API_PATH } from '@site/core/contract';
import { contactForm, sentConfirmation } from '@site/frontend/content/site';
import { expect, open, refusedSend, test } from './fixtures';
import { on } from './viewports';

test.use({ stackSettings: { visitorLimit: 1 } });

/** The phone's home indicator: what env(safe-area-inset-bottom) is on an iPhone in portrait. */
const HOME_INDICATOR_PX = 34;

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

interface Layout {
  viewport: { width: number; height: number };
  /** The id of the element with the focus, or its tag. */
  focused: string;
  focusedBusy: string | null;
  /** The focused element with what belongs to it: a field with its label and message, the confirmation with its heading. */
  frame: Box;
  /** The buttons the visitor acts with: the form's submit button, or the confirmation's. */
  buttons: Box[];
  toasts: Box[];
  header: Box;
}

/** What the visitor sees now, in viewport coordinates. */
function layout(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const box = (element: Element) => {
      const { top, bottom, left, right } = element.getBoundingClientRect();
      return { top, bottom, left, right };
    };
    const shown = (element: Element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
    const focused = document.activeElement!;
    return {
      viewport: { width: innerWidth, height: innerHeight },
      focused: focused.id || focused.tagName,
      focusedBusy: focused.getAttribute('aria-busy'),
      frame: box(focused.closest('.field, .contact-sent') ?? focused),
      buttons: [...document.querySelectorAll('.contact-form button[type="submit"], .contact-sent button')].filter(shown).map(box),
      toasts: [...document.querySelectorAll('.toast')].filter(shown).map(box),
      header: box(document.querySelector('.site-header')!),
    };
  });
}

const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

function expectClear(state: string, { viewport, frame, buttons, toasts, header }: Layout, phone: boolean) {
  expect(toasts.length, `${state}: a toast shows`).toBeGreaterThan(0);
  expect(frame.top >= 0 && frame.bottom <= viewport.height, `${state}: the focused field is in view ${JSON.stringify(frame)}`).toBe(true);
  for (const [name, target] of [['the focused field', frame], ...buttons.map((button) => ['a button', button] as const)] as const) {
    for (const cover of [header, ...toasts]) {
      expect(overlap(target, cover), `${state}: ${name} ${JSON.stringify(target)} under ${JSON.stringify(cover)}`).toBe(false);
    }
  }
  for (const toast of toasts) {
    if (phone) {
      expect(toast.top, `${state}: on a phone the toast is in the lower half`).toBeGreaterThan(viewport.height / 2);
      expect(toast.bottom, `${state}: above the home indicator`).toBeLessThanOrEqual(viewport.height - HOME_INDICATOR_PX);
    } else {
      expect(toast.top, `${state}: on a wide screen the toast is at the top`).toBeLessThan(header.bottom + 40);
      expect(viewport.width - toast.right, `${state}: at the right`).toBeLessThan(40);
    }
  }
}

async function fill(page: Page) {
  await page.locator('#contact-name').fill('Anna de Vries');
  await page.locator('#contact-email').fill('anna@bedrijf.nl');
  await page.locator('#contact-message').fill('Wij zoeken een interim controller voor drie maanden.');
}

test.describe('the form’s status', () => {
  // Where the page comes to rest is the subject, not how it moves there: with reduced motion
  // it scrolls at once, so each state is read where it stays.
  test.use({ reducedMotion: 'reduce' });

  test(
    'covers neither the field with the focus nor the button, with fields missing, while sending, once sent and over the limit',
    { tag: on('phone', 'desktop') },
    async ({ page, isMobile: phone, watch }) => {
      // The send over the limit, which the app logs.
      watch.allowErrors(refusedSend(429));
      await open(page, '/');
      if (phone) {
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Emulation.setSafeAreaInsetsOverride', { insets: { bottom: HOME_INDICATOR_PX, bottomMax: HOME_INDICATOR_PX } });
      }
      const submit = page.locator('.contact-form button[type="submit"]');
      await submit.scrollIntoViewIfNeeded();

      await submit.click();
      await expect(page.getByText(contactForm.messages.required)).toBeVisible();
      await expect(async () => {
        const missing = await layout(page);
        expect(missing.focused).toBe('contact-name');
        expectClear('fields missing', missing, phone);
      }).toPass();

      await fill(page);
      let answer!: () => void;
      const held = new Promise<void>((resolve) => (answer = resolve));
      await page.route(`**${API_PATH}`, async (route) => {
        await held;
        await route.continue();
      });
      await submit.click();
      await expect(page.getByText(contactForm.messages.sending)).toBeVisible();
      // The sending shows on the button, and the button keeps the focus (a disabled one would drop it).
      await expect(submit).toHaveText(contactForm.submitting);
      await expect(async () => {
        const sending = await layout(page);
        expect([sending.focused, sending.focusedBusy]).toEqual(['BUTTON', 'true']);
        expectClear('sending', sending, phone);
      }).toPass();

      answer();
      await expect(page.getByRole('heading', { name: 'Bedankt, Anna' })).toBeVisible();
      await page.unrouteAll();
      await expect(async () => {
        const sent = await layout(page);
        expect(sent.focused).toBe('H3');
        expectClear('sent', sent, phone);
      }).toPass();

      await page.getByRole('button', { name: sentConfirmation.another }).click();
      await fill(page);
      await submit.click();
      const alert = page.getByRole('alert');
      await expect(alert.locator('.toast-detail').first()).toHaveText(/^U hebt in korte tijd/);
      await expect(async () => {
        const limited = await layout(page);
        expectClear('over the limit', limited, phone);
        if (phone) {
          const [toast] = limited.toasts;
          // Compact: it was 230 px at the top, over Naam and E-mailadres.
          expect(toast!.bottom - toast!.top).toBeLessThanOrEqual(200);
        }
      }).toPass();
    },
  );
});
