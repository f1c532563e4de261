/**
 * The form without JavaScript on a stage whose throttle lets no request through: API Gateway
 * answers every post itself, before the function, and the edge sends the visitor on to the
 * busy page with what was typed kept for Back.
 */
import { FORM_RESULT_PAGES } from '@site/core/contract';
import { formResults } from '@site/frontend/content/form-results';
import { expect, test } from './fixtures';
import { expectValues, fill, MESSAGE, send } from './no-script-form';
import { on } from './viewports';

test.use({ stackSettings: { stageThrottle: { rate: 0.001, burst: 0 } } });

test.describe('the contact form without JavaScript at the site’s rate limit', () => {
  test.use({ javaScriptEnabled: false });

  test(
    'lands on the busy page, not API Gateway’s JSON, nothing stored; Back keeps what was typed',
    { tag: on('phone') },
    async ({ page, site }) => {
      await page.goto('/');
      await fill(page, MESSAGE);
      const answer = await send(page);
      expect(answer.status()).toBe(303);
      expect(answer.headers().location).toBe(FORM_RESULT_PAGES.busy);
      await expect(page).toHaveURL(FORM_RESULT_PAGES.busy);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(formResults.busy.headline);
      await expect(page.getByRole('main')).toContainText(formResults.busy.text);
      expect(await page.content()).not.toContain('Too Many Requests');
      expect(await site.storedMessages()).toEqual([]);

      await page.goBack();
      await expectValues(page, MESSAGE);
    },
  );
});
