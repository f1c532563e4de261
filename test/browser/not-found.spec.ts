import { asRead } from '@site/testing/as-read';
import { expect, open, test } from './fixtures';

test.describe('404 page', () => {
  test('answers an unknown path with status 404 and the prerendered 404 page', async ({ site }) => {
    const response = await fetch(site.url('/does-not-exist'));
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(asRead(html)).toContain('Oops! Page not found');
    expect(html).toContain('Return to Home');
    expect(html).toContain('<meta name="robots" content="noindex" />');
  });

  test('shows "Oops! Page not found" and a "Return to Home" link that goes to /', async ({ page }) => {
    await open(page, '/does-not-exist');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oops! Page not found');
    const home = page.getByRole('link', { name: 'Return to Home' });
    await expect(home).toHaveAttribute('href', '/');
    await home.click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Finance Professionals Met een streepje voor');
  });

  test('is the 404 page for deeper paths too, hydrated without errors', async ({ page }) => {
    await open(page, '/diensten/onbekend?x=1');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oops! Page not found');
  });
});
