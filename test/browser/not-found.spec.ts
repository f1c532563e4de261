import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type Site } from './support';
import { asRead } from '@site/testing/as-read';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site?.close());

describe('404 page', () => {
  it('answers an unknown path with status 404 and the prerendered 404 page', async () => {
    const response = await fetch(site.url('/does-not-exist'));
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(asRead(html)).toContain('Oops! Page not found');
    expect(html).toContain('Return to Home');
    expect(html).toContain('<meta name="robots" content="noindex" />');
  });

  it('shows "Oops! Page not found" and a "Return to Home" link that goes to /', async () => {
    const watched = await site.open('/does-not-exist');
    const { page } = watched;
    expect(asRead(await page.getByRole('heading', { level: 1 }).textContent())).toBe('Oops! Page not found');
    const home = page.getByRole('link', { name: 'Return to Home' });
    expect(await home.getAttribute('href')).toBe('/');
    await home.click();
    await page.waitForURL(site.url('/'));
    expect(asRead(await page.getByRole('heading', { level: 1 }).textContent())).toBe('Finance Professionals Met een streepje voor');
    expect(watched.errors).toEqual([]);
    expect(await watched.cspViolations()).toEqual([]);
  });

  it('is the 404 page for deeper paths too, hydrated without errors', async () => {
    const watched = await site.open('/diensten/onbekend?x=1');
    expect(asRead(await watched.page.getByRole('heading', { level: 1 }).textContent())).toBe('Oops! Page not found');
    expect(watched.errors).toEqual([]);
  });
});
