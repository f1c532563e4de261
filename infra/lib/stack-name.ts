/**
 * What the stacks are called: one definition for the app and for `npm run messages`, which
 * finds a stage's table through its stack's outputs. No imports, so a script can read it
 * without loading the CDK.
 */

/** The prefix of every stack and resource name. */
export const APP_NAME = 'consultancy-site';

/** The site stack of a stage: `consultancy-site-<stage>`. */
export const siteStackName = (stage: string) => `${APP_NAME}-${stage}`;

/** The site stack's output that names its contact-messages table. */
export const TABLE_NAME_OUTPUT = 'TableName';
