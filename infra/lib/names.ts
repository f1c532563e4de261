/**
 * Every stack and resource name starts with the app's name and the stage, so stages deploy
 * side by side in one account.
 */
export const APP_NAME = 'consultancy-site';

/** `consultancy-site-<stage>`: the site stack's name, and the prefix of its resources' names. */
export function stagePrefix(stage: string): string {
  return `${APP_NAME}-${stage}`;
}
