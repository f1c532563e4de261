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
