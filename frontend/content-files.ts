/**
 * The content files that hold the firm's facts, by their path from the repository's root
 * (the files the firm edits). Each exports the facts it still shows as placeholder(…) in its
 * PLACEHOLDERS; the CDK app reads them here and refuses a `prod` deploy while any is left.
 * The build and every synth check the facts themselves with the schemas of core/node/content-check.ts.
 * A new content file that marks placeholders or holds facts is added here.
 */
import * as firmFacts from '@site/core/content/firm';
import { FIRM_FACTS, PRIVACY_FACTS, type FactsOfFile } from '@site/core/node/content-check';
import type { Placeholders, PlaceholdersByFile } from '@site/core/placeholders';
import * as privacy from './src/content/privacy';

const FIRM_FILE = 'core/src/content/firm.ts';
const PRIVACY_FILE = 'frontend/src/content/privacy.ts';

export const CONTENT_MODULES = { [FIRM_FILE]: firmFacts, [PRIVACY_FILE]: privacy } satisfies Record<string, { PLACEHOLDERS: Placeholders }>;

/** The placeholders left in each content file. */
export const PLACEHOLDERS_BY_FILE: PlaceholdersByFile = new Map(
  Object.entries(CONTENT_MODULES).map(([file, module]) => [file, module.PLACEHOLDERS]),
);

/** Every placeholder left in the content, by key with its sample value. */
export const CONTENT_PLACEHOLDERS: Placeholders = new Map([...PLACEHOLDERS_BY_FILE.values()].flatMap((placeholders) => [...placeholders]));

/** The facts of each file, as written there, with the schema that checks them. */
export const CONTENT_FACTS: readonly FactsOfFile[] = [
  { file: FIRM_FILE, schema: FIRM_FACTS, facts: { SITE_ORIGIN: firmFacts.SITE_ORIGIN, firm: firmFacts.firm } },
  { file: PRIVACY_FILE, schema: PRIVACY_FACTS, facts: { privacyContact: privacy.privacyContact } },
];
