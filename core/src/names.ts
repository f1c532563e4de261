/**
 * Every stack and resource name starts with the app's name and the stage, so stages deploy
 * side by side in one account. No imports: `npm run messages` reads it without loading the CDK.
 */
export const APP_NAME = 'consultancy-site';

/**
 * The stage's Lambda functions by the name of their handler (lambda/src/handlers): each is
 * `consultancy-site-<stage>-<name>`, with a role of its own. `outside-check` posts through the
 * stage's public address every five minutes, as a visitor does (core/src/outside-check.ts).
 */
export const FUNCTION_NAMES = ['send-contact-email', 'retry-undelivered', 'record-delivery-event', 'outside-check'] as const;
export type FunctionName = (typeof FUNCTION_NAMES)[number];

/** `consultancy-site-<stage>`: the site stack's name, and the prefix of its resources' names. */
export function stagePrefix(stage: string): string {
  return `${APP_NAME}-${stage}`;
}

/** The site stack of a stage; `npm run messages` finds the stage's table through its outputs. */
export const siteStackName = stagePrefix;

/**
 * The stage's SES configuration set: every e-mail of the stage is sent through it, and it
 * publishes the e-mail's delivery events. A fixed name, so `npm run messages -- resend` knows
 * it from the stage; the set is deleted with the stack, never retained.
 */
export function configurationSetName(stage: string): string {
  return stagePrefix(stage);
}

/** The us-east-1 stack of a stage's alarms on what CloudFront (and the optional WAF) publish there only. */
export function edgeAlarmsStackName(stage: string): string {
  return `${stagePrefix(stage)}-edge-alarms`;
}

/** The site stack's output that names its contact-messages table. */
export const TABLE_NAME_OUTPUT = 'TableName';

/**
 * The shared stack that owns the SES identity of `identity` (an address or a domain) in an
 * account and region: every stage that sends as it synthesizes the same stack by this name.
 */
export function mailStackName(identity: string): string {
  const readable = identity
    .toLowerCase()
    .replace('@', '-at-')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  // CloudFormation stack names stop at 128 characters.
  return `${APP_NAME}-mail-${readable}`.slice(0, 128).replace(/-$/, '');
}

/**
 * The account's one GitHub deploy stack (the OIDC provider and the role the deploy workflow
 * assumes): per account, not per stage, so no stage's deploy or destroy ever touches it.
 */
export const GITHUB_DEPLOY_STACK_NAME = `${APP_NAME}-github-deploy`;

/** The GitHub deploy stack's output: the role the workflow's AWS_DEPLOY_ROLE_ARN variable names. */
export const DEPLOY_ROLE_ARN_OUTPUT = 'DeployRoleArn';
