/**
 * The contact form with JavaScript against the real handler and the emulators: what it sends,
 * the toasts it shows, the fields it keeps or clears, what it refuses before sending, and how
 * it lays out any number of fields.
 */
import type { Page } from '@playwright/test';
import { API_PATH, IDEMPOTENCY_HEADER } from '@site/core/contract';
import { contactForm } from '@site/frontend/content/site';
import { expect, open, refusedSend, test } from './fixtures';
import { on } from './viewports';

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

/** The form's fields hold these values, in the form's order. */
async function expectValues(page: Page, values: string[]) {
  for (const [i, selector] of Object.keys(MESSAGE).entries()) await expect(page.locator(selector)).toHaveValue(values[i]!);
}

const toasts = (page: Page) => page.getByRole('region', { name: 'Meldingen' });

test.describe('contact form against the real handler and emulators', () => {
  test('sends the message, shows the success toast and clears every field', async ({ page }) => {
    await open(page, '/');
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await fillForm(page);
    const request = page.waitForRequest((r) => r.url().endsWith(API_PATH) && r.method() === 'POST');
    const response = page.waitForResponse((r) => r.url().endsWith(API_PATH));
    await page.getByRole('button', { name: contactForm.submit }).click();

    const sent = await request;
    expect(sent.headers()[IDEMPOTENCY_HEADER.toLowerCase()]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.postDataJSON()).toMatchObject({ name: 'Anna de Vries', email: 'anna@bedrijf.nl', website: '' });
    expect((await response).status()).toBe(200);

    await expect(toasts(page).getByText('Uw bericht is verzonden! We nemen zo spoedig mogelijk contact met u op.')).toBeVisible();
    await expect(page.getByText('Uw bericht wordt verzonden...')).toHaveCount(0);
    await expectValues(page, ['', '', '', '', '']);
    // In the form's place, a confirmation that stays, with the focus on its heading.
    await expect(page.getByRole('heading', { name: 'Bedankt, Anna' })).toBeFocused();
    await expect(page.getByRole('form', { name: 'Stuur ons een bericht' })).toHaveCount(0);
  });

  test('shows one outcome at a time: a new send clears the earlier toasts', { tag: on('phone', 'desktop') }, async ({ page }) => {
    await open(page, '/');
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: contactForm.submit }).click();
    await expect(page.getByText('Vul alle verplichte velden in.')).toBeVisible();

    await fillForm(page);
    const response = page.waitForResponse((r) => r.url().endsWith(API_PATH));
    await page.getByRole('button', { name: contactForm.submit }).click();
    const toastTexts = page.locator('.toast-message');
    // While sending: the loading toast alone, the red one is gone.
    expect(await toastTexts.allTextContents()).not.toContain('Vul alle verplichte velden in.');
    expect((await response).status()).toBe(200);
    await expect(toastTexts).toHaveText(['Uw bericht is verzonden! We nemen zo spoedig mogelijk contact met u op.']);
  });

  test('keeps the fields and shows the error toast when the message cannot be stored', async ({ page, site, watch }) => {
    // The failed request and the logged error, nothing else.
    watch.allowErrors(refusedSend(503));
    await open(page, '/');
    await site.stack.stopDynamoDb();
    try {
      await page.locator('#contact').scrollIntoViewIfNeeded();
      await fillForm(page);
      await page.getByRole('button', { name: contactForm.submit }).click();
      const failure = page.getByRole('alert');
      // The function waits for DynamoDB before it answers that it could not store the message.
      await expect(failure).toHaveText('Er is een fout opgetreden bij het verzenden van uw bericht. Probeer het opnieuw.', {
        timeout: 20_000,
      });
      // Only the visitor limit adds a second line; a fault of ours is the spec's text alone.
      await expect(failure.locator('.toast-detail')).toHaveCount(0);
      await expectValues(page, Object.values(MESSAGE));
      expect(watch.errors.some((e) => /answered 5\d\d/.test(e))).toBe(true);
    } finally {
      await site.stack.startDynamoDb();
    }
  });

  test('refuses empty required fields in the browser without sending anything', async ({ page }) => {
    await open(page, '/');
    let sent = 0;
    page.on('request', (r) => r.url().endsWith(API_PATH) && sent++);
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await page.locator('#contact-name').fill('   ');
    await page.getByRole('button', { name: contactForm.submit }).click();
    await expect(page.getByRole('alert')).toHaveText('Vul alle verplichte velden in.');
    expect(sent).toBe(0);
  });

  test('names a mistyped e-mail address at the field, moves focus there and sends nothing', async ({ page }) => {
    await open(page, '/');
    let sent = 0;
    page.on('request', (r) => r.url().endsWith(API_PATH) && sent++);
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await fillForm(page);
    await page.locator('#contact-email').fill('anna@bedrijf');
    await page.getByRole('button', { name: contactForm.submit }).click();

    const email = page.locator('#contact-email');
    await expect(page.getByText('Vul een geldig e-mailadres in.')).toBeVisible();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator(`#${await email.getAttribute('aria-describedby')}`)).toHaveText('Vul een geldig e-mailadres in.');
    await expect(email).toBeFocused();
    expect(sent).toBe(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test(
    'counts down near a limit, keeps every character past it, and refuses to send until it fits',
    { tag: on('phone') },
    async ({ page }) => {
      await open(page, '/');
      let sent = 0;
      page.on('request', (r) => r.url().endsWith(API_PATH) && sent++);
      await page.locator('#contact').scrollIntoViewIfNeeded();
      await fillForm(page);
      const message = page.locator('#contact-message');
      const count = page.locator('#contact-message-count');
      await message.fill('x'.repeat(4600));
      await expect(count).toHaveText('Nog 400 van 5000 tekens over');
      await message.fill('x'.repeat(5003));
      await expect(count).toHaveText('3 tekens te veel (maximaal 5000)');
      await expect(message).toHaveValue('x'.repeat(5003));
      await page.getByRole('button', { name: contactForm.submit }).click();
      await expect(page.getByText('Uw bericht is te lang (maximaal 5000 tekens).')).toBeVisible();
      expect(sent).toBe(0);
      await expect(page.locator('[aria-live="polite"]').filter({ hasText: 'Bericht: 3 tekens te veel (maximaal 5000)' })).toBeAttached();
    },
  );

  for (const javaScriptEnabled of [true, false]) {
    test.describe(() => {
      test.use({ javaScriptEnabled });

      test(
        `lays out any number of fields in any order without an empty cell (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`,
        { tag: on('phone', 'desktop') },
        async ({ page, isMobile }) => {
          const perRow = isMobile ? 1 : 2;
          await (javaScriptEnabled ? open(page, '/') : page.goto('/'));
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
  }
});
