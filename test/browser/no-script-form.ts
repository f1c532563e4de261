/** The contact form as a visitor without JavaScript fills and sends it: a classic form post. */
import type { Page } from '@playwright/test';
import { API_PATH } from '@site/core/contract';
import { contactForm } from '@site/frontend/content/site';
import { expect } from './fixtures';

/** A visitor's message, every field filled, the message over two lines. */
export const MESSAGE = {
  name: 'Joost Zonderscript',
  email: 'joost@zonderscript.nl',
  phone: '+31 6 5555 1234',
  company: 'Zonderscript & Zn',
  message: 'Graag een gesprek over interim management.\nBij voorkeur op dinsdag.',
};

export async function fill(page: Page, values: Record<string, string>) {
  for (const [field, value] of Object.entries(values)) await page.locator(`#contact-${field}`).fill(value);
}

/** The form's fields hold these values, in the form's order. */
export async function expectValues(page: Page, values: Record<string, string>) {
  for (const [field, value] of Object.entries(values)) await expect(page.locator(`#contact-${field}`)).toHaveValue(value);
}

/** Sends the form and waits for the page it is sent on to; returns the POST's own answer. */
export async function send(page: Page) {
  const posted = page.waitForResponse((response) => response.url().endsWith(API_PATH) && response.request().method() === 'POST');
  await page.getByRole('button', { name: contactForm.submit }).click();
  const answer = await posted;
  await page.waitForLoadState('load');
  return answer;
}
