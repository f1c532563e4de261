import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATH, IDEMPOTENCY_HEADER } from '@site/core/contract';
import type { Page } from 'playwright-core';
import { startSite, type Site } from './support';
import { contactForm } from '@site/frontend/content/site';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site?.close());

const MESSAGE = {
  '#contact-name': 'Anna de Vries',
  '#contact-email': 'anna@bedrijf.nl',
  '#contact-phone': '055 123 45 67',
  '#contact-company': 'De Vries BV',
  '#contact-message': 'Wij zoeken een interim controller voor drie maanden.',
};

async function fillForm(page: Page) {
  for (const [selector, value] of Object.entries(MESSAGE)) await page.locator(selector).fill(value);
}

const values = (page: Page) => Promise.all(Object.keys(MESSAGE).map((selector) => page.locator(selector).inputValue()));
const toasts = (page: Page) => page.getByRole('region', { name: 'Meldingen' });

describe('contact form against the real handler and emulators', () => {
  it('sends the message, shows the success toast and clears every field', async () => {
    const watched = await site.open('/');
    const { page } = watched;
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await fillForm(page);
    const request = page.waitForRequest((r) => r.url().endsWith(API_PATH) && r.method() === 'POST');
    const response = page.waitForResponse((r) => r.url().endsWith(API_PATH));
    await page.getByRole('button', { name: contactForm.submit }).click();

    const sent = await request;
    expect(sent.headers()[IDEMPOTENCY_HEADER.toLowerCase()]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.postDataJSON()).toMatchObject({ name: 'Anna de Vries', email: 'anna@bedrijf.nl', website: '' });
    expect((await response).status()).toBe(200);

    const success = toasts(page).getByText('Uw bericht is verzonden! We nemen zo spoedig mogelijk contact met u op.');
    await success.waitFor();
    expect(await page.getByText('Uw bericht wordt verzonden...').count()).toBe(0);
    expect(await values(page)).toEqual(['', '', '', '', '']);
    // In the form's place, a confirmation that stays, with the focus on its heading.
    const thanks = page.getByRole('heading', { name: 'Bedankt, Anna' });
    expect(await thanks.evaluate((heading) => heading === document.activeElement)).toBe(true);
    expect(await page.getByRole('form', { name: 'Stuur ons een bericht' }).count()).toBe(0);
    expect(watched.errors).toEqual([]);
    expect(await watched.cspViolations()).toEqual([]);
  });

  it.each([
    ['1440', { viewport: { width: 1440, height: 900 } }],
    ['390', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ] as const)('shows one outcome at a time: a new send clears the earlier toasts (%s px)', async (_, options) => {
    const { page } = await site.open('/', options);
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: contactForm.submit }).click();
    await page.getByText('Vul alle verplichte velden in.').waitFor();

    await fillForm(page);
    const response = page.waitForResponse((r) => r.url().endsWith(API_PATH));
    await page.getByRole('button', { name: contactForm.submit }).click();
    const toastTexts = () => page.locator('.toast-message').allTextContents();
    // While sending: the loading toast alone, the red one is gone.
    expect(await toastTexts()).not.toContain('Vul alle verplichte velden in.');
    expect((await response).status()).toBe(200);
    await toasts(page).getByText('Uw bericht is verzonden! We nemen zo spoedig mogelijk contact met u op.').waitFor();
    expect(await toastTexts()).toEqual(['Uw bericht is verzonden! We nemen zo spoedig mogelijk contact met u op.']);
  });

  it('keeps the fields and shows the error toast when the message cannot be stored', async () => {
    const { page, errors } = await site.open('/');
    await site.stack.stopDynamoDb();
    try {
      await page.locator('#contact').scrollIntoViewIfNeeded();
      await fillForm(page);
      await page.getByRole('button', { name: contactForm.submit }).click();
      const failure = page.getByRole('alert');
      await failure.waitFor({ timeout: 20_000 });
      expect(await failure.textContent()).toBe('Er is een fout opgetreden bij het verzenden van uw bericht. Probeer het opnieuw.');
      // Only the visitor limit adds a second line; a fault of ours is the spec's text alone.
      expect(await failure.locator('.toast-detail').count()).toBe(0);
      expect(await values(page)).toEqual(Object.values(MESSAGE));
      // The failed request and the logged error, nothing else.
      expect(errors.some((e) => /answered 5\d\d/.test(e))).toBe(true);
    } finally {
      await site.stack.startDynamoDb();
    }
  });

  it('refuses empty required fields in the browser without sending anything', async () => {
    const { page } = await site.open('/');
    let sent = 0;
    page.on('request', (r) => r.url().endsWith(API_PATH) && sent++);
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await page.locator('#contact-name').fill('   ');
    await page.getByRole('button', { name: contactForm.submit }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Vul alle verplichte velden in.');
    expect(sent).toBe(0);
  });

  it('names a mistyped e-mail address at the field, moves focus there and sends nothing', async () => {
    const { page, errors } = await site.open('/');
    let sent = 0;
    page.on('request', (r) => r.url().endsWith(API_PATH) && sent++);
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await fillForm(page);
    await page.locator('#contact-email').fill('anna@bedrijf');
    await page.getByRole('button', { name: contactForm.submit }).click();

    const email = page.locator('#contact-email');
    await page.getByText('Vul een geldig e-mailadres in.').waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await email.getAttribute('aria-describedby'))!;
    expect(await page.locator(`#${describedBy}`).textContent()).toBe('Vul een geldig e-mailadres in.');
    expect(await email.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(sent).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('counts down near a limit, keeps every character past it, and refuses to send until it fits', async () => {
    const { page } = await site.open('/', { viewport: { width: 390, height: 844 } });
    let sent = 0;
    page.on('request', (r) => r.url().endsWith(API_PATH) && sent++);
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await fillForm(page);
    const message = page.locator('#contact-message');
    await message.fill('x'.repeat(4600));
    expect(await page.locator('#contact-message-count').textContent()).toBe('Nog 400 van 5000 tekens over');
    await message.fill('x'.repeat(5003));
    expect(await page.locator('#contact-message-count').textContent()).toBe('3 tekens te veel (maximaal 5000)');
    expect((await message.inputValue()).length).toBe(5003);
    await page.getByRole('button', { name: contactForm.submit }).click();
    await page.getByText('Uw bericht is te lang (maximaal 5000 tekens).').waitFor();
    expect(sent).toBe(0);
    await page
      .locator('[aria-live="polite"]')
      .filter({ hasText: 'Bericht: 3 tekens te veel (maximaal 5000)' })
      .waitFor({ state: 'attached' });
  });

  const DESKTOP = { viewport: { width: 1440, height: 900 } };
  const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
  it.each([
    ['1440', 'on', DESKTOP, 2, true],
    ['390', 'on', PHONE, 1, true],
    ['1440', 'off', DESKTOP, 2, false],
    ['390', 'off', PHONE, 1, false],
  ] as const)(
    'lays out any number of fields in any order without an empty cell (%s px, JavaScript %s)',
    async (_, __, options, perRow, javaScriptEnabled) => {
      const { page } = await site.open('/', { ...options, javaScriptEnabled });
      const grid = page.locator('.form-grid');
      // The field list's shapes, made from the form's own fields: single-line fields (odd and even
      // counts) with a multi-line one after them, before them or between them.
      const layouts: [string, string[]][] = [
        ['as built', ['name', 'email', 'phone', 'company', 'message']],
        ['one single-line field less', ['name', 'email', 'phone', 'message']],
        ['one single-line field', ['name', 'message']],
        ['five single-line fields', ['name', 'email', 'phone', 'company', 'name', 'message']],
        ['the long field in between', ['name', 'message', 'email', 'phone', 'company']],
        ['the long field first', ['message', 'name', 'email', 'phone']],
      ];
      for (const [label, names] of layouts) {
        const rows = await grid.evaluate((element, order) => {
          // The form's own fields as built, kept aside the first time.
          const built = ((window as unknown as { builtFields?: Element[] }).builtFields ??= [...element.children]);
          const fields = Object.fromEntries(built.map((field) => [field.querySelector('[name]')!.getAttribute('name'), field]));
          element.replaceChildren(...order.map((name) => fields[name]!.cloneNode(true)));
          const width = element.getBoundingClientRect().width;
          const gap = parseFloat(getComputedStyle(element).columnGap);
          const byRow = new Map<number, DOMRect[]>();
          for (const field of element.children) {
            const box = field.getBoundingClientRect();
            byRow.set(Math.round(box.top), [...(byRow.get(Math.round(box.top)) ?? []), box]);
          }
          // Per row: how many fields, and how much of the row's width they leave empty.
          return [...byRow.values()].map((boxes) => ({
            fields: boxes.length,
            empty: Math.round(width - boxes.reduce((sum, box) => sum + box.width, 0) - gap * (boxes.length - 1)),
            wide: boxes.some((box) => box.width > width / 2),
          }));
        }, names);
        expect(
          rows.every((row) => row.empty === 0),
          `${label}: ${JSON.stringify(rows)}`,
        ).toBe(true);
        expect(Math.max(...rows.map((row) => row.fields)), label).toBeLessThanOrEqual(perRow);
        if (label === 'as built') expect(rows.map((row) => row.fields)).toEqual(perRow === 2 ? [2, 2, 1] : [1, 1, 1, 1, 1]);
        expect(
          rows.map((row) => row.fields).reduce((a, b) => a + b),
          label,
        ).toBe(names.length);
      }
    },
  );
});
