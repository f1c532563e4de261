/**
 * retentionDays is one setting: whatever it is set to, every log group of every stack keeps
 * its logs that long and both functions that store or re-send messages get it, so the
 * contact function writes it as each message's expiry (the TTL). The site's privacy
 * statement states the same number: the build reads it from cdk.json, and the synth
 * refuses a build that states another (stated-facts.test.ts). CloudFront's access log is
 * kept as the access logs in S3 are, ACCESS_LOG_RETENTION_DAYS, whatever retentionDays is.
 */
import { describe, expect, it } from 'vitest';
import { ACCESS_LOG_RETENTION_DAYS } from '@site/core/access-logs';
import { only, synth } from './synth';

/** Not the default (365), and a period CloudWatch Logs offers. */
const RETENTION_DAYS = 30;

describe('retentionDays', () => {
  const s = synth({ retentionDays: RETENTION_DAYS });
  const logGroups = s.assembly.stacks.flatMap((stack) =>
    Object.entries((stack.template as { Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }> }).Resources)
      .filter(([, resource]) => resource.Type === 'AWS::Logs::LogGroup')
      .map(([id, resource]) => [`${stack.stackName}/${id}`, resource.Properties?.RetentionInDays] as const),
  );

  it('is how long every log group of every stack keeps its logs, but CloudFront’s access log, kept as the access logs are', () => {
    expect(logGroups.length).toBeGreaterThanOrEqual(6);
    const accessLog = ([id]: readonly [string, unknown]) => id.startsWith('consultancy-site-test-edge-alarms/CloudFrontAccessLog');
    expect(logGroups.filter(accessLog)).toHaveLength(1);
    expect(Object.fromEntries(logGroups)).toEqual(
      Object.fromEntries(logGroups.map((group) => [group[0], accessLog(group) ? ACCESS_LOG_RETENTION_DAYS : RETENTION_DAYS])),
    );
  });

  it.each(['send-contact-email', 'retry-undelivered'])('is the RETENTION_DAYS %s stores messages with', (name) => {
    const { resource } = only(s.template, 'AWS::Lambda::Function', { FunctionName: `consultancy-site-test-${name}` });
    expect(resource.Properties.Environment.Variables.RETENTION_DAYS).toBe(String(RETENTION_DAYS));
  });
});
