/**
 * The local stack's settings come from the deploy configuration's own defaults (one home
 * for each), and its e-mail addresses are local ones that could never reach a deploy.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import {
  type ConfigError,
  DEFAULTS,
  deliveryAlarmHoursFrom,
  loadConfig,
  retentionDaysFrom,
  visitorLimitFrom,
} from '@site/core/node/deploy-config';
import { DELIVERY_ALARM_ENV, FUNCTION_ENV, ORIGIN_VERIFY_ENV, VISITOR_LIMIT_ENV } from '@site/core/function-env';
import { LOCAL_CONFIGURATION_SET } from '@site/local/defaults';
import { MIN_ORIGIN_SECRET_LENGTH } from '@site/lambda/origin-verify';
import { runStandIns } from '@site/testing/stand-ins';
import { EPHEMERAL_STACK, startLocalStack, type LocalStack } from '../src/stack';

describe('local stack configuration', () => {
  let stack: LocalStack;
  const environmentBefore = { ...process.env };

  beforeAll(async () => {
    const siteDir = mkdtempSync(join(tmpdir(), 'config-site-'));
    writeFileSync(join(siteDir, 'index.html'), '<!doctype html><title>Home</title>');
    writeFileSync(join(siteDir, '404.html'), '<!doctype html><title>404</title>');
    stack = await startLocalStack({ ...EPHEMERAL_STACK, ...runStandIns(), siteDir });
  });
  afterAll(() => stack?.close());

  it('gives the functions their settings and clients itself, and leaves the process environment as it was', () => {
    expect(process.env).toEqual(environmentBefore);
    expect(stack.lambdaEnv[FUNCTION_ENV.tableName]).toBe(stack.tableName);
  });

  it('keeps messages as long as a deploy with cdk.json as committed would', () => {
    expect(stack.lambdaEnv[FUNCTION_ENV.retentionDays]).toBe(String(retentionDaysFrom(CDK_JSON_CONTEXT)));
  });

  it('limits visitors as a deploy with cdk.json as committed would, by default the one default in DEFAULTS', () => {
    const limit = visitorLimitFrom(CDK_JSON_CONTEXT);
    expect(stack.lambdaEnv[VISITOR_LIMIT_ENV.messages]).toBe(String(limit.messages));
    expect(stack.lambdaEnv[VISITOR_LIMIT_ENV.windowSeconds]).toBe(String(limit.windowMinutes * 60));
    if (CDK_JSON_CONTEXT.visitorLimit === undefined) expect(limit).toEqual(DEFAULTS.visitorLimit);
  });

  it('sends through its own configuration set, and counts e-mails not delivered after the time a deploy would', () => {
    expect(stack.lambdaEnv[FUNCTION_ENV.configurationSet]).toBe(LOCAL_CONFIGURATION_SET);
    expect(stack.lambdaEnv[DELIVERY_ALARM_ENV.minutes]).toBe(String(deliveryAlarmHoursFrom(CDK_JSON_CONTEXT) * 60));
  });

  it('gives the function an origin secret made for this run, which the edge sends and the repository never holds', () => {
    const secret = stack.lambdaEnv[ORIGIN_VERIFY_ENV.current]!;
    expect(secret.length).toBeGreaterThanOrEqual(MIN_ORIGIN_SECRET_LENGTH);
    expect(JSON.stringify(CDK_JSON_CONTEXT)).not.toContain(secret);
  });

  it('mails between local addresses that the deploy configuration refuses', () => {
    const from = stack.lambdaEnv[FUNCTION_ENV.mailFrom]!;
    const to = stack.lambdaEnv[FUNCTION_ENV.mailTo]!;
    expect(from).toMatch(/@[^@]+\.localhost$/);
    expect(to).toMatch(/@[^@]+\.localhost$/);
    let problems: string[] = [];
    try {
      loadConfig({ ...CDK_JSON_CONTEXT, senderAddress: from, contactRecipient: to });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([
      expect.stringMatching(/^contactRecipient: .* is a placeholder/),
      expect.stringMatching(/^senderAddress: .* is a placeholder/),
    ]);
  });
});
