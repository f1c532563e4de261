/**
 * The local stand-in's fixed settings: the ports `npm start` and `npm run dev` listen on (each
 * with the variable that moves it), the firm's addresses and the configuration set. One
 * definition for the stack, its command-line programs, `npm run messages` and the tests.
 * No imports, so a light script can read it without loading the stack.
 */

/** For the local stack only: overrides the deploy's messages per visitor per window; 0 turns the limit off. */
export const VISITOR_LIMIT_VARIABLE = 'VISITOR_LIMIT';

/** For the local stack only: 0 lifts the mail budgets and every network's share of them, for a demo or a trial of many messages. */
export const MAIL_BUDGET_VARIABLE = 'MAIL_BUDGET';

/** For the local stack only: the firm's address (contactRecipient), e.g. a mailbox simulator address. */
export const CONTACT_RECIPIENT_VARIABLE = 'CONTACT_RECIPIENT';

export interface PortSetting {
  /** The environment variable that overrides the port. */
  variable: string;
  port: number;
}

export const LOCAL_PORTS = {
  site: { variable: 'PORT', port: 8080 },
  dynamodb: { variable: 'DYNAMODB_PORT', port: 8000 },
  ses: { variable: 'SES_PORT', port: 8005 },
  /** The API's own address, as execute-api is beside CloudFront: what skips the edge is refused. */
  api: { variable: 'API_PORT', port: 8088 },
  /** The page of the path's counts, from the functions' metric lines. */
  metrics: { variable: 'METRICS_PORT', port: 8006 },
  /** CloudWatch's and EventBridge's reads of the stack's alarm and schedules, for `npm run smoke`'s health. */
  monitoring: { variable: 'MONITORING_PORT', port: 8007 },
  dev: { variable: 'DEV_PORT', port: 5173 },
} as const satisfies Record<string, PortSetting>;

/**
 * The addresses of the local e-mails. Only the SES emulator ever sees them: .localhost
 * cannot receive mail, and the deploy's configuration refuses it.
 */
export const LOCAL_MAIL = { from: 'website@consultancy-site.localhost', to: 'info@consultancy-site.localhost' } as const;

/** The stage the local functions count their metrics under, as a deployed stage's do under its name. */
export const LOCAL_STAGE = 'local';

/** The configuration set of the local SES: the local stack's functions send through it, as a stage's do through its own. */
export const LOCAL_CONFIGURATION_SET = 'consultancy-site-local';
