/**
 * Every alarm the stacks create, by name: how urgent it is, when it fires and the first thing
 * to check. The one source of both: each alarm's description in CloudWatch, which its e-mail
 * carries, is built from it here (with links to the stage's dashboard and to the saved query
 * for its metric, log-queries.ts), and the on-call guide's table (docs/on-call.md, "Alarms")
 * is checked against it by infra/test/alarm-catalogue.test.ts. A new alarm is one entry more.
 */
import { FUNCTION_TIMEOUT_SECONDS } from '@site/core/function-limits';
import { OUTSIDE_CHECK } from '@site/core/outside-check';

/**
 * How soon someone must act, in words the alarm e-mail carries. The on-call guide says what
 * each means for who does what by when.
 */
export const SEVERITIES = {
  now: 'visitors cannot reach the site or send, or messages may be lost',
  today: 'messages are stored but may not reach the firm, or the site or the account’s sending is at risk',
  'this week': 'limits or abuse; nothing is lost',
} as const;

export type Severity = keyof typeof SEVERITIES;

/**
 * SES reviews an account at a bounce rate of 5% and may pause its sending at 10%; for
 * complaints at 0.1% and 0.5% (Amazon SES Developer Guide, "Reputation metrics messages";
 * AWS re:Post, "Why is my Amazon SES sending account under review or paused?"). The alarms
 * fire at half the review level, while there is time to act. The rates are the account's in
 * the region, so another sender in the account moves them too.
 */
export const SES_REPUTATION = {
  bounceRate: { review: 0.05, pause: 0.1, alarm: 0.025 },
  complaintRate: { review: 0.001, pause: 0.005, alarm: 0.0005 },
} as const;

/**
 * 4xx answers of the API in 5 minutes that make a surge: a visitor's typo is one or two, the
 * stage throttle's 429s and a script's refused posts come by the dozen.
 */
export const API_4XX_SURGE = 50;

/** Minutes in which every retry run left stored messages waiting for their e-mail before MessagesUndelivered fires (three runs). */
export const UNDELIVERED_ALARM_MINUTES = 30;

/**
 * Messages stored in one hour that make a surge: a consultancy's form gets a few a day, and
 * this is three times the mail budget's default hour (settings table, `mailBudget`), so a wave
 * shows here before or as the budget is spent.
 */
export const STORED_SURGE_PER_HOUR = 30;

/** Messages held as suspect in one hour that make a wave of spam rather than a stray bot. */
export const SUSPECT_SURGE_PER_HOUR = 10;

/** Percent of requests CloudFront answered with a 5xx, over 5 minutes, twice in a row. */
export const CLOUDFRONT_5XX_PERCENT = 5;

/**
 * Percent of requests CloudFront answered with a 4xx, over 5 minutes, three times in a row: a
 * broken origin access (every page 403) or deleted objects (404), not a visitor's typo or a
 * scanner's burst of unknown paths, which passes within minutes.
 */
export const SITE_4XX_PERCENT = 50;

/**
 * Requests in 5 minutes below which neither rate alarm judges: one 5xx in three requests is a
 * visitor's bad luck, not a third of the site broken. The outside check alone makes four requests
 * per run, so a quiet night is watched by its alarm instead.
 */
export const RATE_MIN_REQUESTS = { fiveXx: 10, fourXx: 20 } as const;

/** Lambda@Edge execution and validation errors in 5 minutes: two, as the check's two API requests of a run would make. */
export const EDGE_FUNCTION_ERRORS = 2;

/**
 * Days before the certificate expires at which its alarm fires. ACM renews a DNS-validated
 * certificate from 60 days before it expires (ACM User Guide, "Managed certificate renewal"), so
 * fewer than this means its renewal has failed, with three weeks left to fix it.
 */
export const CERTIFICATE_DAYS_LEFT = 21;

/** Requests refused for want of the origin secret in 5 minutes: one run of the check, its challenge and its post. */
export const NOT_THROUGH_CLOUDFRONT = 2;

/**
 * The contact function's p99 duration, as a share of its timeout, that counts as near it: the
 * SES and DynamoDB calls are given fixed time (lambda/src/shared/aws.ts), so a p99 this close means a
 * dependency is slow and the next requests time out (a 5xx, and a form post's error page).
 */
export const SLOW_SHARE_OF_TIMEOUT = 0.8;

const percent = (fraction: number) => `${Number((fraction * 100).toPrecision(3))}%`;

/** Runs in a row the outside check must fail, or be missing, before its alarm fires: one bad run is a blip, two are not. */
export const OUTSIDE_CHECK_FAILED_RUNS = 2;

export interface AlarmEntry {
  severity: Severity;
  /** When it fires, as a sentence part: "the contact function failed". */
  firesWhen: string;
  /** Where to look first, and what usually fixes it. */
  firstCheck: string;
}

/**
 * The composite alarms: each fires when one of its members does, and notifies for all of them,
 * so one incident is one page or one e-mail; the members notify nobody themselves.
 */
export const COMPOSITE_ALARMS = {
  ContactPathDown: ['OutsideCheckFailed', 'MessagesNotStored', 'SendFunctionErrors', 'Api5xx'],
  SpamWave: ['MessagesStoredSurge', 'MailBudgetSpent', 'ManySuspectMessages'],
} as const;

export type CompositeName = keyof typeof COMPOSITE_ALARMS;

const logGroup = (fn: string) => `\`/aws/lambda/consultancy-site-<stage>-${fn}\``;

export const ALARMS = {
  Api5xx: {
    severity: 'now',
    firesWhen: 'the API answered 5xx: a function error, a timeout, or a 503 when a message could not be stored',
    firstCheck: `the contact function's log group ${logGroup('send-contact-email')}, then the API's access log`,
  },
  SendFunctionErrors: {
    severity: 'now',
    firesWhen: 'the contact function failed: visitors may be getting 5xx answers',
    firstCheck: `its log group ${logGroup('send-contact-email')}; a deploy just before it: roll back (on-call guide)`,
  },
  MessagesNotStored: {
    severity: 'now',
    firesWhen:
      'a visitor’s message could not be stored and the visitor was asked to try again (form posts get a page, not a 5xx, so `Api5xx` misses them)',
    firstCheck: `DynamoDB's console for the table (\`TableName\` output), then ${logGroup('send-contact-email')}: \`store_failed\` or \`config_error\``,
  },
  CloudFront5xxRate: {
    severity: 'now',
    firesWhen: `in us-east-1: more than ${CLOUDFRONT_5XX_PERCENT}% of the site's requests got a 5xx from CloudFront for 10 minutes, with at least ${RATE_MIN_REQUESTS.fiveXx} requests in each 5`,
    firstCheck:
      'its saved query (us-east-1): the paths and `x-edge-detailed-result-type`; `Api5xx` says whether it is the API; right after a rotation, the origin secret; `LambdaExecutionError` or a 502 or 503 on `/api/*` while `Api5xx` is quiet: the API edge function (see `EdgeFunctionErrors`)',
  },
  OutsideCheckFailed: {
    severity: 'now',
    firesWhen: `no run of the outside check passed for ${OUTSIDE_CHECK_FAILED_RUNS * OUTSIDE_CHECK.intervalMinutes} minutes (a run that did not happen counts as failed): the page, an asset, the challenge or a whole post failed through the public address`,
    firstCheck:
      'its saved query: the step that failed and why (on-call guide, The form is dead). `page`, `asset`: the site, its certificate or DNS; `challenge`, `post` 403: the origin secret; 5xx, not e-mailed: the contact function, DynamoDB or SES. `npm run smoke -- <SiteUrl>` says the same',
  },
  ContactPathDown: {
    severity: 'now',
    firesWhen:
      'one of `OutsideCheckFailed`, `MessagesNotStored`, `SendFunctionErrors` and `Api5xx` is in ALARM: one page for one incident (those four notify nobody themselves)',
    firstCheck:
      "the dashboard's alarm list (those in ALARM first) says which, and the e-mail's state reason names it; that alarm's first step in the on-call guide's table",
  },
  Site4xxRate: {
    severity: 'today',
    firesWhen: `in us-east-1: more than ${SITE_4XX_PERCENT}% of at least ${RATE_MIN_REQUESTS.fourXx} requests in 5 minutes got a 4xx from CloudFront, for 15 minutes`,
    firstCheck:
      "its saved query (us-east-1): 403 on every path is the bucket's origin access (a deploy, a bucket policy changed by hand); 404 on the pages is a deleted object (deploy the release again); 404s on paths the site never had (`/wp-login.php`) are a scanner, which passes",
  },
  EdgeFunctionErrors: {
    severity: 'now',
    firesWhen: `in us-east-1: the API edge function (Lambda@Edge) failed or answered CloudFront something invalid ${EDGE_FUNCTION_ERRORS} or more times in 5 minutes, so API answers fail`,
    firstCheck:
      'its saved query (us-east-1) gives the edge location (`x-edge-location`); the function logs to `/aws/lambda/us-east-1.consultancy-site-<stage>-api-origin-response` in the region nearest it (on-call guide, The edge function); a deploy just before it: roll back',
  },
  CertificateExpiry: {
    severity: 'today',
    firesWhen: `in us-east-1, with \`domainName\`: the site's certificate expires in fewer than ${CERTIFICATE_DAYS_LEFT} days, so ACM's renewal failed`,
    firstCheck:
      "ACM's console in us-east-1: the renewal status, and the validation CNAME record in the hosted zone (on-call guide, Certificate or DNS); with `certificateArn`, whoever made that certificate",
  },
  PostsNotThroughCloudFront: {
    severity: 'today',
    firesWhen: `${NOT_THROUGH_CLOUDFRONT} or more requests in 5 minutes were refused for want of the origin secret: calls around CloudFront, or CloudFront sending a wrong one`,
    firstCheck:
      "with `OutsideCheckFailed`: the origin secret, a rotation half done or the secret edited (on-call guide, Rotating the origin secret); alone: the API's access log, calls to the API's own address",
  },
  SendFunctionSlow: {
    severity: 'today',
    firesWhen: `the contact function's p99 duration was above ${Math.round(SLOW_SHARE_OF_TIMEOUT * 100)}% of its ${FUNCTION_TIMEOUT_SECONDS} s timeout for 10 minutes: requests are about to time out`,
    firstCheck:
      "its saved query: the slowest requests and their outcome; the dashboard's services row: DynamoDB's throttles, the function's duration; SES's service health",
  },
  MessagesUndelivered: {
    severity: 'today',
    firesWhen: `stored messages have not been e-mailed for ${UNDELIVERED_ALARM_MINUTES} minutes (the retry job keeps trying)`,
    firstCheck:
      "SES's account: `npm run smoke`'s health says whether its sending is paused (on-call guide, SES paused), the sandbox, the quota; the identity's verification; `npm run messages -- list --status received` and `show <id>` for the last error",
  },
  MessagesFailed: {
    severity: 'today',
    firesWhen: 'the retry job gave up on a message after about 10.5 hours of refusals; it stays stored',
    firstCheck: '`npm run messages -- list --status failed`, `show <id>`, then `resend <id>` once SES accepts mail',
  },
  RetryJobNotRunning: {
    severity: 'today',
    firesWhen: 'the retry job has not run for 30 minutes, so undelivered messages are not being re-sent',
    firstCheck: 'the schedule rule `consultancy-site-<stage>-retry-undelivered` (enabled?), then the last deploy',
  },
  RetryFunctionErrors: {
    severity: 'today',
    firesWhen: 'the retry job failed, so undelivered messages are not being re-sent',
    firstCheck: `its log group ${logGroup('retry-undelivered')}`,
  },
  DigestFailed: {
    severity: 'today',
    firesWhen:
      'two retry runs in a row could not read or send the hourly digest of held messages, so held messages are not reaching the firm (the runs still count and re-send the rest)',
    firstCheck: `the runs' \`digestError\` in ${logGroup('retry-undelivered')}: \`AccessDenied…\` is the retry job's role (the last deploy), an SES error the sandbox or the quota; \`npm run messages -- wave --since 2h\` lists what is held meanwhile`,
  },
  DeliveryProblems: {
    severity: 'today',
    firesWhen: "within 5 minutes of SES reporting a bounce, a complaint or a reject of a message's e-mail",
    firstCheck:
      "`npm run messages -- list --status bounced` (or `complained`, `rejected`), then `show <id>` for the mail server's diagnostic; fix `contactRecipient` or the firm's mailbox, deploy, `resend <id>`",
  },
  MessagesNotDelivered: {
    severity: 'today',
    firesWhen: 'a message SES accepted more than `deliveryAlarmHours` ago (3 by default) has no delivery event, in two retry runs in a row',
    firstCheck:
      "`npm run messages -- list --status emailed` and `--status delayed`, `show <id>`; the firm's mailbox; then `DeliveryEventFunctionErrors`",
  },
  DeliveryEventsNotOurs: {
    severity: 'today',
    firesWhen:
      "a delivery event named a stored message but an attempt it never made or another SES message id, and was not applied: only whoever can send through the stage's configuration set or invoke its consumer makes one",
    firstCheck:
      'CloudTrail for `SendEmail` with the `contact-message` tag and for `Invoke` of `record-delivery-event`; its saved query: `not_our_attempt` (also when the contact function could not record an attempt SES took; the retry job then sends it again)',
  },
  DeliveryEventFunctionErrors: {
    severity: 'today',
    firesWhen: 'the consumer of SES delivery events failed, so outcomes are not being recorded (EventBridge and Lambda retry for a day)',
    firstCheck: `its log group ${logGroup('record-delivery-event')}: the table, its permissions`,
  },
  SendFunctionThrottles: {
    severity: 'today',
    firesWhen: 'the contact function hit its reserved concurrency (`reservedConcurrency`) and requests were refused',
    firstCheck: "the API's access log: a flood of calls (see `Api4xxSurge`), or a limit too low for the traffic",
  },
  SesBounceRate: {
    severity: 'today',
    firesWhen: `the account's SES bounce rate reached ${percent(SES_REPUTATION.bounceRate.alarm)} (AWS reviews the account at ${percent(SES_REPUTATION.bounceRate.review)} and may pause its sending at ${percent(SES_REPUTATION.bounceRate.pause)})`,
    firstCheck: '`npm run messages -- list --status bounced` and fix the address they go to; every sender in the account counts',
  },
  SesComplaintRate: {
    severity: 'today',
    firesWhen: `the account's SES complaint rate reached ${percent(SES_REPUTATION.complaintRate.alarm)} (AWS reviews the account at ${percent(SES_REPUTATION.complaintRate.review)} and may pause its sending at ${percent(SES_REPUTATION.complaintRate.pause)})`,
    firstCheck: "the firm's own mail filter marks the notifications as spam: have it allow `senderAddress`",
  },
  MailBudgetSpent: {
    severity: 'today',
    firesWhen:
      "the hour's or the day's mail budget (`mailBudget`) was spent and messages were held for the hourly digest instead of e-mailed one by one",
    firstCheck:
      "`npm run messages -- wave --since 6h` (on-call guide, A spam wave); a real person's message among the held: `release <id>`; a wave's: `purge --fingerprint <fingerprint> --confirm`",
  },
  MessagesStoredSurge: {
    severity: 'this week',
    firesWhen: `${STORED_SURGE_PER_HOUR} or more messages were stored in one hour (the form usually gets a few a day)`,
    firstCheck:
      '`npm run messages -- wave --since 2h`: one text from many addresses is a wave (see `MailBudgetSpent`); varied clean messages are a campaign or a mention, and the budget may need raising',
  },
  SpamWave: {
    severity: 'today',
    firesWhen:
      'one of `MessagesStoredSurge`, `MailBudgetSpent` and `ManySuspectMessages` is in ALARM: one e-mail for one wave (those three notify nobody themselves)',
    firstCheck:
      "`npm run messages -- wave --since 2h` (on-call guide, A spam wave); the e-mail's state reason names which fired: `MailBudgetSpent` means people's messages are held too, `release <id>` them",
  },
  ManySuspectMessages: {
    severity: 'this week',
    firesWhen: `${SUSPECT_SURGE_PER_HOUR} or more messages in one hour scored as suspect and were held`,
    firstCheck:
      '`npm run messages -- wave --since 2h` for the signals and fingerprints; `purge --fingerprint <fingerprint>` (a dry run first), `release <id>` for a person',
  },
  Api4xxSurge: {
    severity: 'today',
    firesWhen: `the API answered ${API_4XX_SURGE} or more 4xx in 5 minutes`,
    firstCheck:
      "the API's access log: 429s are the stage throttle (`apiRateLimit`) or the visitor limit, 400s refused posts, 403s calls around CloudFront or from other sites; 403s right after a deploy or a rotation are the origin secret",
  },
  WafBlockedRequests: {
    severity: 'this week',
    firesWhen: 'in us-east-1, with `wafRateLimit`: the WAF blocked requests to `/api/*` from an address over the limit',
    firstCheck:
      "the web ACL's sampled requests in the WAF console: a script, or the firm's own office behind one address (raise `wafRateLimit`)",
  },
} as const satisfies Record<string, AlarmEntry>;

export type AlarmName = keyof typeof ALARMS;

/** The alarms that notify only through a composite alarm. */
export const COMPOSITE_MEMBERS: ReadonlySet<AlarmName> = new Set(Object.values(COMPOSITE_ALARMS).flat());

/**
 * Whether an alarm pages (pageTo) besides its e-mail: what cannot wait, unless a composite alarm
 * pages for it.
 */
export const pages = (name: AlarmName): boolean => ALARMS[name].severity === 'now' && !COMPOSITE_MEMBERS.has(name);

/** CloudWatch's limit on an alarm's description. */
export const DESCRIPTION_LIMIT = 1024;

/** Where an alarm's e-mail sends its reader: the stage's dashboard, and the saved query that shows the alarm's log lines. */
export interface AlarmLinks {
  dashboard: string;
  query: {
    /** As the console lists it (`<prefix>/<name>`), to find it when the link cannot be opened. */
    name: string;
    /** Its QueryDefinitionId: a UUID, known only at deploy time. */
    id: string;
    /** The console link, given that id. */
    url: (id: string) => string;
  };
}

/** A QueryDefinitionId is a UUID; the limit is checked with one of that length while the id is still a deploy-time token. */
const QUERY_ID_LENGTH = 36;

/** The description CloudWatch shows, and every alarm and recovery e-mail carries. */
export function alarmDescription(name: AlarmName, links: AlarmLinks): string {
  const { severity, firesWhen, firstCheck } = ALARMS[name];
  const text = (queryId: string) =>
    `Severity ${severity} (${SEVERITIES[severity]}). Fires when ${firesWhen}. First check: ${firstCheck}. ` +
    `Dashboard: ${links.dashboard} Logs: ${links.query.name} ${links.query.url(queryId)} On-call guide: docs/on-call.md#alarms`;
  const length = text('0'.repeat(QUERY_ID_LENGTH)).length;
  if (length > DESCRIPTION_LIMIT) {
    throw new Error(`${name}: the alarm description is ${length} characters; CloudWatch takes ${DESCRIPTION_LIMIT}.`);
  }
  return text(links.query.id);
}
