/**
 * The site's content modules, listed by name. Each exports the facts it still shows as
 * placeholder(…) in its PLACEHOLDERS; the CDK app reads them here and refuses a `prod`
 * deploy while any is left. A new content module is added to CONTENT_MODULES.
 */
import type { Placeholders, PlaceholdersByFile } from '@site/core/placeholders';
import * as privacy from './privacy';
import * as site from './site';

export const CONTENT_MODULES = { site, privacy } satisfies Record<string, { PLACEHOLDERS: Placeholders }>;

/** Where the content modules are in the repository: the files the firm edits. */
export const CONTENT_DIR = 'frontend/src/content';

/** The placeholders left in each content module's file. */
export const PLACEHOLDERS_BY_FILE: PlaceholdersByFile = new Map(
  Object.entries(CONTENT_MODULES).map(([name, module]) => [`${CONTENT_DIR}/${name}.ts`, module.PLACEHOLDERS]),
);

/** Every placeholder left in the content, by key with its sample value. */
export const CONTENT_PLACEHOLDERS: Placeholders = new Map([...PLACEHOLDERS_BY_FILE.values()].flatMap((placeholders) => [...placeholders]));
