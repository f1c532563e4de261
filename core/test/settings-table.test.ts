/**
 * The README's settings table ("Deploying to AWS", "Configuration") is where an operator
 * learns what the deploy accepts: it lists every key of the configuration schema, with the
 * default the schema gives it, and no key the schema does not know.
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { SETTINGS, type SettingKey } from '@site/core/deploy-config';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const KEYS = Object.keys(SETTINGS) as SettingKey[];

/** The table's default cell by key; a row such as "`hostedZoneName`, `hostedZoneId`" names several. */
function settingsTable(): Map<string, string> {
  const start = README.indexOf('\n### Configuration\n');
  const section = README.slice(start, README.indexOf('\n### ', start + 1));
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split('|').map((cell) => cell.trim()));
  return new Map(rows.flatMap(([, keys = '', fallback = '']) => [...keys.matchAll(/`([^`]+)`/g)].map(([, key]) => [key!, fallback])));
}

/** How a default is written in the table: a string bare, anything else as JSON. */
const written = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const withoutSpaces = (text: string) => text.replace(/[\s`]/g, '');

describe('the README settings table', () => {
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
