/**
 * A field added to the contact-field list (the shared row in @site/testing/fixtures/fields)
 * is shown by `npm run messages` without any other change: `show` lists it with the form's
 * fields, `export` answers with it. The function's side of the same walk is in
 * lambda/test/added-field.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { FIELDS_WITH_JOB_TITLE } from '@site/testing/fixtures/fields';
import { messageMaker } from '@site/testing/stored-messages';
import { exportJson, messageText } from '../messages/render';

const TYPED = 'Hoofd <Control> & "Finance"';
const stored = messageMaker({ idPrefix: '01JFUNCTIE', from: new Date('2026-03-02T09:00:00Z') })({
  email: 'functie@voorbeeld.nl',
  phone: '055 123 4567',
  company: 'De Vries B.V.',
  functie: TYPED,
} as never);

describe('a field added to the contact-field list, in npm run messages', () => {
  it('is listed by show with the form’s fields, in the table’s order', () => {
    const lines = messageText(stored, FIELDS_WITH_JOB_TITLE).split('\n');
    const fieldRows = lines.filter((line) => /^(name|email|phone|company|message|functie)\s/.test(line));
    expect(fieldRows.map((line) => line.split(/\s+/)[0])).toEqual(['name', 'email', 'phone', 'company', 'message', 'functie']);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^functie\\s+${TYPED.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)));
  });

  it('is in the export, after the table’s other fields', () => {
    const exported = JSON.parse(
      exportJson(
        'functie@voorbeeld.nl',
        { messages: [stored], idempotencyRecords: [], visitorCounters: [], stampRecords: [] },
        new Date(),
        FIELDS_WITH_JOB_TITLE,
      ),
    ) as { messages: Record<string, unknown>[] };
    expect(exported.messages).toEqual([stored]);
    expect(Object.keys(exported.messages[0]!).slice(0, 6)).toEqual(['name', 'email', 'phone', 'company', 'message', 'functie']);
  });
});
