/**
 * The outside check against the local stack, on its schedule as `npm start` runs it (here every
 * second rather than every minute): it passes on a working stack; with the local CloudFront
 * sending a wrong origin secret, then with SES stopped, it fails within one period, naming the
 * step and why, and passes again once each is put right. The counts page shows its last run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTSIDE_CHECK } from '@site/core/outside-check';
import { CHECK_PREFIX } from '@site/core/table';
import { fetchSentEmails } from '@site/emulators/servers';
import { makeSiteDir } from '@site/testing/fixtures/site';
import { runIam } from '@site/testing/stand-ins';
import { EPHEMERAL_STACK, startLocalStack, type LocalStack } from '../src/stack';
import type { LastCheck } from '../src/metrics-page';

const INTERVAL_MS = 1_000;
/** One period, and the run under way when the fault came, which may still pass. */
const WITHIN_ONE_PERIOD_MS = 2 * INTERVAL_MS + 1_500;

let stack: LocalStack;
beforeAll(async () => {
  // Stand-ins of its own (a stack on the run's shared ones cannot stop SES), behind the stage's roles.
  stack = await startLocalStack({ ...EPHEMERAL_STACK, iam: runIam(), siteDir: makeSiteDir(), outsideCheckIntervalMs: INTERVAL_MS });
});
afterAll(async () => {
  await stack?.close();
});

/** The first run that ends after now and satisfies `wanted`, and how long after now it ended. */
async function nextRun(wanted: (run: LastCheck) => boolean, withinMs = WITHIN_ONE_PERIOD_MS): Promise<{ run: LastCheck; afterMs: number }> {
  const since = Date.now();
  for (;;) {
    const last = stack.outsideCheck.last();
    if (last && Date.parse(last.at) > since && wanted(last)) return { run: last, afterMs: Date.parse(last.at) - since };
    if (Date.now() - since > withinMs) throw new Error(`No such run within ${withinMs} ms; the last: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The check's last run as the counts page gives it, and the page's paragraph about it. */
async function countsPage(): Promise<{ json: LastCheck; paragraph: string }> {
  const json = (await (await fetch(`${stack.urls.metrics}/outside-check.json`)).json()) as LastCheck;
  const html = await (await fetch(stack.urls.metrics)).text();
  return { json, paragraph: /<p class="check[^"]*">([\s\S]*?)<\/p>/.exec(html)![1]!.replace(/<[^>]+>/g, '') };
}

describe('the outside check against the local stack', () => {
  it('passes on its schedule: the page, an asset, the challenge solved, a whole post e-mailed to the mailbox simulator', async () => {
    const { run } = await nextRun((last) => last.passed, 10_000);
    expect(run.steps.map((step) => step.step)).toEqual(['page', 'asset', 'challenge', 'post']);
    expect(run.messageId).toMatch(new RegExp(`^${CHECK_PREFIX}`));
    const emails = await fetchSentEmails(stack.urls.ses);
    expect(emails.at(-1)?.destination.to).toEqual([OUTSIDE_CHECK.recipient]);
    const page = await countsPage();
    expect(page.json.passed).toBe(true);
    expect(page.paragraph).toMatch(
      /^Outside check passed at \d\d:\d\d:\d\d UTC: page \d+ ms, asset \d+ ms, challenge \d+ ms, post \d+ ms\.$/,
    );
    expect(stack.metrics.of('OutsideCheck')?.value).toBe(1);
  });

  it('fails within one period while the local CloudFront sends a wrong origin secret, at the challenge, and passes again once it is right', async () => {
    stack.sendOriginSecret('a-secret-the-function-does-not-hold-0123456789abcdef');
    try {
      const { run, afterMs } = await nextRun((last) => !last.passed);
      expect(afterMs).toBeLessThanOrEqual(WITHIN_ONE_PERIOD_MS);
      expect(run.failed).toEqual({ step: 'challenge', problem: expect.stringMatching(/^GET \/api\/challenge answered 403: /) });
      const page = await countsPage();
      expect(page.paragraph).toContain('Outside check failed at');
      expect(page.paragraph).toContain('at challenge: GET /api/challenge answered 403');
      expect(stack.metrics.of('OutsideCheck')?.value).toBe(0);
      expect(stack.metrics.of('NotThroughCloudFront')?.value).toBeGreaterThan(0);
    } finally {
      stack.sendOriginSecret(undefined);
    }
    await nextRun((last) => last.passed);
  });

  it('fails within one period while SES is stopped, at the post, and passes again once SES is back', async () => {
    await stack.stopSes();
    try {
      const { run, afterMs } = await nextRun((last) => !last.passed);
      expect(afterMs).toBeLessThanOrEqual(WITHIN_ONE_PERIOD_MS);
      expect(run.failed).toEqual({ step: 'post', problem: "SES did not accept the check's e-mail to the mailbox simulator" });
      expect((await countsPage()).paragraph).toContain("at post: SES did not accept the check's e-mail to the mailbox simulator");
    } finally {
      await stack.startSes();
    }
    const { run } = await nextRun((last) => last.passed);
    expect(run.failed).toBeUndefined();
  });
});
