/**
 * The names of the environment variables the stack and the local stack give the functions:
 * one definition for the functions that read them and for whatever sets them.
 */

/** What both functions are given: where messages are kept, and who the e-mail comes from and goes to. */
export const FUNCTION_ENV = {
  tableName: 'TABLE_NAME',
  mailFrom: 'MAIL_FROM',
  /** One address, or several separated by commas. */
  mailTo: 'MAIL_TO',
  /** Days a stored message is kept (its TTL). */
  retentionDays: 'RETENTION_DAYS',
  /** The SES configuration set every e-mail is sent through, so its delivery events come back. */
  configurationSet: 'SES_CONFIGURATION_SET',
  /** The stage: the dimension its metrics are counted under (core/src/metric-names.ts). Every function is given it. */
  stage: 'STAGE',
} as const;

/** What only the retry job is given: after how many minutes an e-mail SES accepted counts as not delivered. */
export const DELIVERY_ALARM_ENV = { minutes: 'DELIVERY_ALARM_MINUTES' } as const;

/** Where the contact function finds the accepted origin secrets. */
export const ORIGIN_VERIFY_ENV = {
  /** What CloudFront sends. */
  current: 'ORIGIN_VERIFY',
  /** Set only during a rotation: the value the edges that have not changed over yet still send. */
  previous: 'ORIGIN_VERIFY_PREVIOUS',
} as const;

/**
 * The contact function's visitor limit: messages per visitor per window (0 turns it off),
 * messages per IPv6 /48 in the same window, and the window's length.
 */
export const VISITOR_LIMIT_ENV = {
  messages: 'VISITOR_LIMIT',
  ipv6Network: 'VISITOR_IPV6_NETWORK_LIMIT',
  windowSeconds: 'VISITOR_WINDOW_SECONDS',
} as const;

/**
 * The page of held messages (decision 0048): the site's address, which the retry job puts in
 * front of the digest's link, and the days a message the firm marks spam is still kept.
 */
export const HELD_PAGE_ENV = {
  siteUrl: 'SITE_URL',
  spamRetentionDays: 'SPAM_RETENTION_DAYS',
} as const;

/** The functions' settings, as values. */
export interface FunctionSettings {
  /** The stage the functions count their metrics under. */
  stage: string;
  tableName: string;
  mail: { from: string; to: string };
  configurationSet: string;
  retentionDays: number;
  /** Days a message marked spam is kept (cdk.json's spamRetentionDays). */
  spamRetentionDays: number;
  /** The site's address (`https://www.example.nl`), for the digest's link to the page of held messages. */
  siteUrl: string;
  deliveryAlarmHours: number;
  originSecret: string;
  visitorLimit: { messages: number; ipv6Network: number; windowSeconds: number };
  mailBudget: { perHour: number; perDay: number };
  siteMailBudget: { perHour: number; perDay: number };
}

/**
 * The contact function's mail budgets (core/src/spam.ts): e-mails per hour and per day of
 * ordinary messages, and of clean ones from the site's own form.
 */
export const MAIL_BUDGET_ENV = {
  perHour: 'MAIL_BUDGET_PER_HOUR',
  perDay: 'MAIL_BUDGET_PER_DAY',
  sitePerHour: 'SITE_MAIL_BUDGET_PER_HOUR',
  sitePerDay: 'SITE_MAIL_BUDGET_PER_DAY',
} as const;

/**
 * Every function's settings in one environment, under the names above, as the local stack and
 * the tests give them; each function reads its own (the CDK stack sets each function's own on
 * its resource).
 */
export function functionEnvironment(settings: FunctionSettings): Record<string, string> {
  return {
    [FUNCTION_ENV.stage]: settings.stage,
    [FUNCTION_ENV.tableName]: settings.tableName,
    [FUNCTION_ENV.mailFrom]: settings.mail.from,
    [FUNCTION_ENV.mailTo]: settings.mail.to,
    [FUNCTION_ENV.configurationSet]: settings.configurationSet,
    [FUNCTION_ENV.retentionDays]: String(settings.retentionDays),
    [DELIVERY_ALARM_ENV.minutes]: String(settings.deliveryAlarmHours * 60),
    [HELD_PAGE_ENV.siteUrl]: settings.siteUrl,
    [HELD_PAGE_ENV.spamRetentionDays]: String(settings.spamRetentionDays),
    [ORIGIN_VERIFY_ENV.current]: settings.originSecret,
    [VISITOR_LIMIT_ENV.messages]: String(settings.visitorLimit.messages),
    [VISITOR_LIMIT_ENV.ipv6Network]: String(settings.visitorLimit.ipv6Network),
    [VISITOR_LIMIT_ENV.windowSeconds]: String(settings.visitorLimit.windowSeconds),
    [MAIL_BUDGET_ENV.perHour]: String(settings.mailBudget.perHour),
    [MAIL_BUDGET_ENV.perDay]: String(settings.mailBudget.perDay),
    [MAIL_BUDGET_ENV.sitePerHour]: String(settings.siteMailBudget.perHour),
    [MAIL_BUDGET_ENV.sitePerDay]: String(settings.siteMailBudget.perDay),
  };
}
