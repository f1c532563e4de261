/**
 * The values every function under test is configured with: the origin secret the events
 * carry, the stage their metrics are counted under, the firm's addresses, the configuration set
 * the tests' SES knows, and the deploy's default visitor limit.
 */
import { DEFAULTS, defaultIpv6NetworkLimit } from '@site/core/node/deploy-config';

export const TEST_ORIGIN_SECRET = 'origin-secret-of-the-lambda-tests-0123456789abcdef';
/** The stage the functions under test count their metrics under (a metric line's Stage dimension). */
export const TEST_STAGE = 'test';
export const MAIL_FROM = 'website@firma.example';
export const MAIL_TO = 'info@firma.example';
/** The site the digest's link to the page of held messages points at. */
export const TEST_SITE_URL = 'https://www.firma.example';
/** The configuration set the functions of these tests send through: the one their SES knows. */
export const TEST_CONFIGURATION_SET = 'consultancy-site-lambda-tests';
/** The deploy's default visitor limit, as the function reads it from its environment. */
export const TEST_VISITOR_LIMIT = {
  messages: DEFAULTS.visitorLimit.messages,
  ipv6Network: defaultIpv6NetworkLimit(DEFAULTS.visitorLimit.messages),
  windowSeconds: DEFAULTS.visitorLimit.windowMinutes * 60,
} as const;

/**
 * Mail budgets no ordinary test file reaches, so a test that sends dozens of messages sees
 * each e-mailed; the tests of the budget itself give the function their own.
 */
export const TEST_MAIL_BUDGETS = {
  mailBudget: { perHour: 100_000, perDay: 100_000 },
  siteMailBudget: { perHour: 100_000, perDay: 100_000 },
} as const;
