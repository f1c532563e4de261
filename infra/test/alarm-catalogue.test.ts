/**
 * The alarms as on-call meets them: every alarm of every stack e-mails its topic when it fires
 * and again when it is OK (a composite alarm's members through their composite), what cannot
 * wait pages as well, and each says in its description how urgent it is and what to check
 * first, and links to the stage's dashboard and to the saved query that shows its log lines;
 * the on-call guide's table says the same, word for word, from the same catalogue.
 */
import { readFileSync } from 'node:fs';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_NAME, stagePrefix } from '@site/core/names';
import {
  ALARMS,
  alarmDescription,
  COMPOSITE_ALARMS,
  COMPOSITE_MEMBERS,
  DESCRIPTION_LIMIT,
  SEVERITIES,
  type AlarmLinks,
  type AlarmName,
} from '../lib/alarm-catalogue';
import { dashboardUrl, savedQueryUrl } from '../lib/console-links';
import { ALARM_QUERIES, isEdgeQuery } from '../lib/log-queries';
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
  /** The stack's e-mail topic and its page topic. */
  topics: { email: string; page: string };
  /** Its description as CloudWatch shows it, the query's id (a deploy-time reference) as ID. */
  description: string;
  /** The name of the saved query the description's link opens. */
  linkedQuery: string;
}

const ID = '<query-definition-id>';
const SITE_REGION = 'eu-west-1';
const PREFIX = stagePrefix('test');

/** What the stage's stacks make: every saved query's name by its logical id, and the site stack's outputs that carry an id to another region. */
let queryNames: Record<string, string>;
let outputs: Record<string, any>;

/** The description's text, and the saved query its one reference names (in this stack, or the site stack's through an output). */
function readDescription(description: unknown): { text: string; query: string } {
  const parts: unknown[] = typeof description === 'string' ? [description] : (description as any)['Fn::Join'][1];
  const references = parts.filter((part) => typeof part !== 'string') as any[];
  expect(references).toHaveLength(1);
  const reference = references[0]['Fn::GetStackOutput'] ? outputs[references[0]['Fn::GetStackOutput'].OutputName].Value : references[0];
  expect(reference['Fn::GetAtt'][1]).toBe('QueryDefinitionId');
  return { text: parts.map((part) => (typeof part === 'string' ? part : ID)).join(''), query: queryNames[reference['Fn::GetAtt'][0]]! };
}

let alarms: DeployedAlarm[];
beforeAll(() => {
  // With the WAF, an own domain and pageTo, so that every alarm and topic the app can create is there.
  const s: Synthesized = synth({
    alarmEmail: `ops@${TEST_DOMAIN}`,
    pageTo: 'https://events.incident.example.com/integration/abc123/enqueue',
    wafRateLimit: 500,
    domainName: `www.${TEST_DOMAIN}`,
    hostedZoneName: TEST_DOMAIN,
    hostedZoneId: 'Z0123456789ABCDEFGHIJ',
  });
  const stacks = [s.site, s.edgeAlarms].map((stack) => ({ stack, template: Template.fromStack(stack) }));
  queryNames = Object.fromEntries(
    stacks.flatMap(({ template }) =>
      Object.entries<any>(template.findResources('AWS::Logs::QueryDefinition')).map(([id, query]) => [id, query.Properties.Name]),
    ),
  );
  outputs = s.template.toJSON().Outputs;
  alarms = stacks.flatMap(({ stack, template }) => {
    const topic = (name: string) =>
      Object.entries<any>(template.findResources('AWS::SNS::Topic')).find(([, t]) => t.Properties.TopicName.endsWith(name))![0];
    const topics = { email: topic('-alarms'), page: topic('-page') };
    const made = [
      ...Object.values<any>(template.findResources('AWS::CloudWatch::Alarm')).map((alarm) => ({
        ...alarm.Properties,
        name: alarm.Properties.AlarmName,
      })),
      ...Object.values<any>(template.findResources('AWS::CloudWatch::CompositeAlarm')).map((alarm) => ({
        ...alarm.Properties,
        name: alarm.Properties.AlarmName,
      })),
    ];
    return made.map((properties) => {
      const { text, query } = readDescription(properties.AlarmDescription);
      return {
        stack: stack.stackName,
        name: String(properties.name).replace(/^consultancy-site-test-/, ''),
        properties,
        topics,
        description: text,
        linkedQuery: query,
      };
    });
  });
});

/** The links the stage's alarms carry, the query's id left as ID: the site region's query, or us-east-1's. */
const linksOf = (name: AlarmName, region = SITE_REGION, prefix = PREFIX): AlarmLinks => ({
  dashboard: dashboardUrl(region, prefix),
  query: {
    name: `${prefix}/${ALARM_QUERIES[name]}`,
    id: ID,
    url: (id) => savedQueryUrl(isEdgeQuery(ALARM_QUERIES[name]) ? 'us-east-1' : region, id),
  },
});

describe('every alarm in every stack', () => {
  it('is in the catalogue, and the catalogue has no alarm the stacks lack', () => {
    expect(alarms.map((alarm) => alarm.name).sort()).toEqual(Object.keys(ALARMS).sort());
  });

  it('e-mails its stack’s topic when it fires and again when it is OK; what cannot wait also pages; a composite’s member notifies through it alone', () => {
    for (const { name, properties, topics } of alarms) {
      const alarm = name as AlarmName;
      const expected = COMPOSITE_MEMBERS.has(alarm)
        ? undefined
        : [{ Ref: topics.email }, ...(ALARMS[alarm].severity === 'now' ? [{ Ref: topics.page }] : [])];
      expect(properties.AlarmActions, name).toEqual(expected);
      expect(properties.OKActions, name).toEqual(expected);
    }
  });

  it('pages for the contact path once, through its composite alarm, and for no spam wave', () => {
    const paging = alarms.filter((alarm) => alarm.properties.AlarmActions?.length === 2).map((alarm) => alarm.name);
    expect(paging).toContain('ContactPathDown');
    expect(paging.filter((name) => (COMPOSITE_ALARMS.ContactPathDown as readonly string[]).includes(name))).toEqual([]);
    expect(paging).not.toContain('SpamWave');
  });

  it('says how urgent it is, when it fires and what to check first, within CloudWatch’s limit', () => {
    for (const { name, description } of alarms) {
      const entry = ALARMS[name as AlarmName];
      expect(description, name).toBe(alarmDescription(name as AlarmName, linksOf(name as AlarmName)));
      expect(description).toContain(`Severity ${entry.severity} (${SEVERITIES[entry.severity]})`);
      expect(description).toContain(entry.firstCheck);
      expect(description.replace(ID, '0'.repeat(36)).length, name).toBeLessThanOrEqual(DESCRIPTION_LIMIT);
    }
  });

  it('links to the stage’s dashboard and opens the saved query for its metric, in the region the query reads (CloudFront’s access log in us-east-1)', () => {
    for (const { name, description, linkedQuery } of alarms) {
      expect(description, name).toContain(
        `Dashboard: https://${SITE_REGION}.console.aws.amazon.com/cloudwatch/home?region=${SITE_REGION}#dashboards/dashboard/${PREFIX} `,
      );
      const query = ALARM_QUERIES[name as AlarmName];
      const region = isEdgeQuery(query) ? 'us-east-1' : SITE_REGION;
      expect(linkedQuery, name).toBe(`${PREFIX}/${query}`);
      expect(description, name).toContain(
        `Logs: ${linkedQuery} https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}#logsV2:logs-insights$3FqueryDetail$3D~(queryId~'${ID})`,
      );
    }
  });

  it('stays within CloudWatch’s limit for the longest stage name in a region with a long name', () => {
    const prefix = `${APP_NAME}-${'s'.repeat(16)}`;
    for (const name of Object.keys(ALARMS) as AlarmName[]) {
      const description = alarmDescription(name, linksOf(name, 'ap-southeast-4', prefix));
      expect(description.replace(ID, '0'.repeat(36)).length, name).toBeLessThanOrEqual(DESCRIPTION_LIMIT);
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
