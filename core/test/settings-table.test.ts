/**
 * The settings table of the first-deploy guide (docs/first-deploy.md, "Settings") is where an
 * operator learns what the deploy accepts: it lists every key of the configuration schema, with
 * the default the schema gives it, and no key the schema does not know.
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { SETTINGS, type SettingKey } from '@site/core/node/deploy-config';

const GUIDE = readFileSync(new URL('../../docs/first-deploy.md', import.meta.url), 'utf8');
const KEYS = Object.keys(SETTINGS) as SettingKey[];

/** The table's default cell by key; a row such as "`hostedZoneName`, `hostedZoneId`" names several. */
function settingsTable(): Map<string, string> {
  const start = GUIDE.indexOf('\n## Settings\n');
  if (start === -1) throw new Error('docs/first-deploy.md has no "## Settings" section.');
  const end = GUIDE.indexOf('\n## ', start + 1);
  const section = GUIDE.slice(start, end === -1 ? undefined : end);
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split('|').map((cell) => cell.trim()));
  return new Map(rows.flatMap(([, keys = '', fallback = '']) => [...keys.matchAll(/`([^`]+)`/g)].map(([, key]) => [key!, fallback])));
}

/** How a default is written in the table: a string bare, anything else as JSON. */
const written = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const withoutSpaces = (text: string) => text.replace(/[\s`]/g, '');

describe('the settings table of the first-deploy guide', () => {
  const table = settingsTable();

  it('lists every key the configuration accepts', () => {
    expect(KEYS.filter((key) => !table.has(key))).toEqual([]);
  });

  it('lists no key the configuration does not accept', () => {
    expect([...table.keys()].filter((key) => !(KEYS as string[]).includes(key))).toEqual([]);
  });

  it('gives each key the default the configuration gives it, and calls the required ones required', () => {
    for (const key of KEYS) {
      const schema = SETTINGS[key];
      const cell = table.get(key) ?? '';
      if (schema.type === 'non_optional') expect(cell, key).toMatch(/required/);
      const fallback: unknown = v.getDefault(schema);
      if (fallback !== undefined) expect(withoutSpaces(cell), key).toContain(withoutSpaces(written(fallback)));
    }
  });
});
