/**
 * The whole product on one machine, driven as a visitor drives it: Chromium fills the
 * form, the message lands in DynamoDB and the SES outbox; with DynamoDB down the visitor
 * keeps the typed message; once it is back, sending again works and nothing is doubled.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from '@playwright/test';
import { API_PATH } from '@site/core/contract';
import { FAST_FILL_SECONDS } from '@site/core/spam';
import type { StoredMessage } from '@site/core/table';
import { emulatorClientConfig } from '@site/emulators/connections';
import { fetchSentEmails } from '@site/emulators/servers';
import type { LocalStack } from '@site/local/stack';
import { contactForm, sentConfirmation } from '@site/frontend/content';
import { expect, open, test } from './fixtures';

// The table on disk, as `npm start` keeps it: what was stored is still there once DynamoDB is back.
test.use({ stackSettings: { keepsData: true }, startsEmpty: false });
// One visitor's visit, test after test, on one page.
test.describe.configure({ mode: 'serial' });

const FIRST = {
  name: 'Anna de Vries',
  email: 'anna@bedrijf.nl',
  phone: '055 123 45 67',
  company: 'De Vries BV',
  message: 'Wij zoeken een interim controller.',
};
const SECOND = {
  name: 'Bram Jansen',
  email: 'bram@voorbeeld.nl',
  phone: '',
  company: '',
  message: 'Graag een gesprek over procesoptimalisatie.',
};
const ERROR_TOAST = 'Er is een fout opgetreden bij het verzenden van uw bericht. Probeer het opnieuw.';
const SUCCESS_TOAST = 'Uw bericht is verzonden! We nemen zo spoedig mogelijk contact met u op.';

let stack: LocalStack;
let page: Page;

/** When the form was last taken up: a fill, or a send (after which the form asks for a fresh stamp). */
let formUsedAt = 0;

async function fill(values: typeof FIRST) {
  formUsedAt = Date.now();
  for (const [field, value] of Object.entries(values)) await page.locator(`#contact-${field}`).fill(value);
}
async function expectValues(values: typeof FIRST) {
  for (const [field, value] of Object.entries(values)) await expect(page.locator(`#contact-${field}`)).toHaveValue(value);
}
const EMPTY = { name: '', email: '', phone: '', company: '', message: '' };
/** Clicks send and waits for this submission's own answer (an earlier toast may still be showing). */
async function submit(): Promise<number> {
  // As long as a person takes at least, by the function's clock: a script's instant fill is held as a bot's (fastFill).
  await page.waitForTimeout(Math.max(0, formUsedAt + (FAST_FILL_SECONDS + 1) * 1000 - Date.now()));
  formUsedAt = Date.now();
  const answered = page.waitForResponse((response) => response.url().endsWith(API_PATH));
  await page.getByRole('button', { name: contactForm.submit }).click();
  return (await answered).status();
}

async function storedMessages(): Promise<StoredMessage[]> {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient(emulatorClientConfig(stack.urls.dynamodb)));
  const { Items = [] } = await client.send(new ScanCommand({ TableName: stack.tableName }));
  client.destroy();
  return (Items as StoredMessage[]).filter((item) => item.status !== undefined);
}

test.beforeAll(async ({ browser, stack: workerStack }) => {
  stack = workerStack;
  page = await browser.newPage({ baseURL: stack.urls.site, viewport: { width: 1280, height: 900 } });
  await open(page, '/');
  await page.locator('#contact').scrollIntoViewIfNeeded();
});
test.afterAll(async () => {
  await page?.close();
});

test.describe('the form, the handler, DynamoDB and SES together', () => {
  test('stores the message and e-mails it to the firm with Reply-To the visitor', async () => {
    await fill(FIRST);
    expect(await submit()).toBe(200);
    await expect(page.getByRole('status').getByText(SUCCESS_TOAST)).toBeVisible();
    await expectValues(EMPTY);

    const [stored, ...more] = await storedMessages();
    expect(more).toEqual([]);
    expect(stored).toMatchObject({ ...FIRST, status: 'emailed', attempts: 1 });
    const emails = await fetchSentEmails(stack.urls.ses);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      replyTo: [FIRST.email],
      subject: `Nieuw contactbericht van ${FIRST.name} (${FIRST.company})`,
      messageId: stored!.sesMessageId,
    });
    expect(emails[0]!.body.text).toContain(FIRST.message);
  });

  test('keeps the typed message when DynamoDB is down, and sends it once when it is back', async () => {
    // A person's pace, twice over: two sends, each after the fast-fill mark.
    test.slow();
    // From the confirmation of the first message back to the empty form.
    await page.getByRole('button', { name: sentConfirmation.another }).click();
    await fill(SECOND);
    await stack.stopDynamoDb();
    expect(await submit()).toBe(503);
    await expect(page.getByText(ERROR_TOAST)).toBeVisible();
    await expectValues(SECOND);
    expect(await fetchSentEmails(stack.urls.ses)).toHaveLength(1);

    await stack.startDynamoDb();
    expect(await submit()).toBe(200);
    await expect(page.getByRole('status').getByText(SUCCESS_TOAST).first()).toBeVisible();
    await expectValues(EMPTY);

    const messages = await storedMessages();
    expect(messages.map((m) => m.name).sort()).toEqual([FIRST.name, SECOND.name]);
    expect(messages.find((m) => m.name === SECOND.name)).toMatchObject({ email: SECOND.email, message: SECOND.message, status: 'emailed' });
    expect(messages.find((m) => m.name === SECOND.name)).not.toHaveProperty('phone');
    const emails = await fetchSentEmails(stack.urls.ses);
    expect(emails.map((e) => e.replyTo[0])).toEqual([FIRST.email, SECOND.email]);
  });
});
