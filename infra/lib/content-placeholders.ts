/**
 * A `prod` deploy publishes the site to the firm's visitors: it must not carry the sample
 * facts still written as placeholder(…) in the content. Other stages may, and say nothing.
 */
import { CONTENT_PLACEHOLDERS } from '@site/frontend/placeholders';

export const CONTENT_FILE = 'frontend/src/content/site.ts';

export class ContentPlaceholderError extends Error {
  constructor(readonly keys: string[]) {
    super(
      `Stage prod would publish sample content. Replace these placeholder(…) values in ${CONTENT_FILE} with the firm's ` +
        `real facts (write the plain value instead of the placeholder call), then npm run build and run the command again:\n` +
        keys.map((key) => `  - ${key}`).join('\n'),
    );
    this.name = 'ContentPlaceholderError';
  }
}

/** Throws for `prod` while any placeholder is left. */
export function checkContentPlaceholders(stage: string, placeholders: ReadonlyMap<string, string> = CONTENT_PLACEHOLDERS): void {
  if (stage === 'prod' && placeholders.size > 0) throw new ContentPlaceholderError([...placeholders.keys()]);
}
