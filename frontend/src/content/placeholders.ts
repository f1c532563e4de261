/**
 * Every placeholder left in the site's content (see placeholder.ts), by key with its sample
 * value: what the CDK app checks before a `prod` deploy. Importing the content modules here
 * registers theirs.
 */
import './site';
import './privacy';
import { registeredPlaceholders } from './placeholder';

export const CONTENT_PLACEHOLDERS: ReadonlyMap<string, string> = registeredPlaceholders();
