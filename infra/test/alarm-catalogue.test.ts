/**
 * The alarms as on-call meets them: every alarm of every stack e-mails its topic when it fires
 * and again when it is OK, says in its description how urgent it is and what to check first,
 * and the on-call guide's table says the same, word for word, from the same catalogue.
 */
import { readFileSync } from 'node:fs';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALARMS, alarmDescription, DESCRIPTION_LIMIT, SEVERITIES, type AlarmName } from '../lib/alarm-catalogue';
import { synth, TEST_DOMAIN, type Synthesized } from './synth';

const GUIDE = 'docs/on-call.md';
const guide = readFileSync(new URL(`../../${GUIDE}`, import.meta.url), 'utf8');

/** The guide's "## Alarms" section, up to the next section of the same level. */
function alarmsSection(): string {
  const start = guide.indexOf('\n## Alarms\n');
  if (start === -1) throw new Error(`${GUIDE} has no "## Alarms" section.`);
  const end = guide.indexOf('\n## ', start + 1);
  return guide.slice(start, end === -1 ? undefined : end);
}

/** Every table row of the section, as its trimmed cells. */
const tableRows = (section: string) =>
  section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );

interface DeployedAlarm {
  stack: string;
  name: string;
  properties: any;
  topics: string[];
}

let alarms: DeployedAlarm[];
beforeAll(() => {
  // With the WAF on, so that every alarm the app can create is there.
  const s: Synthesized = synth({ alarmEmail: `ops@${TEST_DOMAIN}`, wafRateLimit: 500 });
  alarms = [s.site, s.edgeAlarms].flatMap((stack) => {
    const template = Template.fromStack(stack);
    const topics = Object.keys(template.findResources('AWS::SNS::Topic'));
    return Object.values<any>(template.findResources('AWS::CloudWatch::Alarm')).map((alarm) => ({
      stack: stack.stackName,
      name: String(alarm.Properties.AlarmName).replace(/^consultancy-site-test-/, ''),
      properties: alarm.Properties,
      topics,
    }));
  });
});

describe('every alarm in every stack', () => {
  it('is in the catalogue, and the catalogue has no alarm the stacks lack', () => {
    expect(alarms.map((alarm) => alarm.name).sort()).toEqual(Object.keys(ALARMS).sort());
  });

  it('e-mails its stack’s topic when it fires and again when it is OK', () => {
    for (const { stack, name, properties, topics } of alarms) {
      expect(topics, stack).toHaveLength(1);
      const topic = [{ Ref: topics[0] }];
      expect(properties.AlarmActions, name).toEqual(topic);
      expect(properties.OKActions, name).toEqual(topic);
    }
  });

  it('says how urgent it is, when it fires and what to check first, within CloudWatch’s limit', () => {
    for (const { name, properties } of alarms) {
      const entry = ALARMS[name as AlarmName];
      expect(properties.AlarmDescription, name).toBe(alarmDescription(name as AlarmName));
      expect(properties.AlarmDescription).toContain(`Severity ${entry.severity} (${SEVERITIES[entry.severity]})`);
      expect(properties.AlarmDescription).toContain(entry.firstCheck);
      expect(properties.AlarmDescription.length, name).toBeLessThanOrEqual(DESCRIPTION_LIMIT);
    }
  });
});

describe(`the on-call guide (${GUIDE})`, () => {
  const rows = tableRows(alarmsSection());

  it('defines every severity with the words the alarm e-mails use', () => {
    const defined = rows.filter(([first]) => Object.hasOwn(SEVERITIES, first!.replace(/\*/g, '')));
    expect(Object.fromEntries(defined.map(([severity, means]) => [severity!.replace(/\*/g, ''), means]))).toEqual(SEVERITIES);
  });

  it('lists every alarm with the catalogue’s severity, the moment it fires and the first thing to check, word for word', () => {
    const listed = rows.filter(([first]) => /^`\w+`$/.test(first!));
    expect(
      Object.fromEntries(
        listed.map(([name, severity, firesWhen, firstCheck]) => [name!.slice(1, -1), { severity, firesWhen, firstCheck }]),
      ),
    ).toEqual(ALARMS);
  });
});
