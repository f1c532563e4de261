/**
 * The contact-field table is the one description of the fields: a field added to it is
 * validated, hashed and e-mailed without any other change. (The form's side of the same
 * walk is in frontend/src/components/ContactForm.test.tsx.)
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CONTACT_FIELDS, tooLongMessage } from '@site/core/content/contact-fields';
import { FIELD_LIMITS, REQUIRED_FIELDS, type FieldTable } from '@site/core/contract';
import { bodyHash } from '../src/idempotency';
import { buildNotification } from '../src/mail';
import { validateContactMessage } from '../src/schema';
import { VALID_BODY } from './support/events';

const EXTENDED = {
  ...CONTACT_FIELDS,
  reference: {
    limit: 30,
    required: false,
    kind: 'text',
    label: 'Uw referentie',
    mailLabel: 'Referentie',
    named: 'Uw referentie',
    absent: 'Vul een geldige referentie in.',
  },
} as const satisfies FieldTable;

const ROUTE = { from: 'website@firma.example', to: ['info@firma.example'] };

function valid<T extends FieldTable>(body: unknown, table: T) {
  const result = validateContactMessage(body, table);
  if (!result.ok) throw new Error(`expected a valid message: ${JSON.stringify(result.fields)}`);
  return result.value;
}

describe('a field added to the table', () => {
  const sent = { ...VALID_BODY, reference: '  PO <2026> & "Q4"  ' };

  it('is kept by validation, trimmed, and checked against its own limit', () => {
    expect(valid(sent, EXTENDED).reference).toBe('PO <2026> & "Q4"');
    expect(validateContactMessage({ ...VALID_BODY, reference: 'x'.repeat(31) }, EXTENDED)).toEqual({
      ok: false,
      fields: { reference: 'Uw referentie is te lang (maximaal 30 tekens).' },
    });
    expect(tooLongMessage(EXTENDED.reference)).toBe('Uw referentie is te lang (maximaal 30 tekens).');
    // The contract's own table knows nothing of it: unknown keys never reach storage.
    expect(valid(sent, CONTACT_FIELDS)).not.toHaveProperty('reference');
  });

  it('changes the idempotency hash with its value, and leaves the hash of every message without it as it was', () => {
    const message = valid(sent, EXTENDED);
    const other = valid({ ...sent, reference: 'PO 2027' }, EXTENDED);
    const without = valid(VALID_BODY, EXTENDED);
    expect(new Set([bodyHash(message), bodyHash(other), bodyHash(without)]).size).toBe(3);
    expect(bodyHash(without)).toBe(bodyHash(valid(VALID_BODY, CONTACT_FIELDS)));
  });

  it('is shown, escaped, in the HTML and the text of the e-mail', () => {
    const message = { ...valid(sent, EXTENDED), id: '01JD0000000000000000000000', receivedAt: '2026-11-23T07:42:20.340Z' };
    const input = buildNotification(message, ROUTE, EXTENDED);
    expect(input.Message?.Body?.Text?.Data).toContain('Referentie: PO <2026> & "Q4"');
    const html = input.Message?.Body?.Html?.Data ?? '';
    expect(html).toContain('Referentie');
    expect(html).toContain('PO &lt;2026&gt; &amp; &quot;Q4&quot;');
    expect(html).not.toContain('<2026>');
  });
});

describe('the contract table', () => {
  it('gives the limits and required fields the rest of the code has always used', () => {
    expect(FIELD_LIMITS).toEqual({ name: 100, email: 254, phone: 40, company: 150, message: 5000 });
    expect(REQUIRED_FIELDS).toEqual(['name', 'email', 'message']);
  });
});

describe('the idempotency hash', () => {
  it('is over the fields present, as name/value pairs sorted by name, whatever the order they came in', () => {
    const pairs = Object.entries(VALID_BODY).sort(([a], [b]) => (a < b ? -1 : 1));
    const expected = createHash('sha256').update(JSON.stringify(pairs)).digest('hex');
    expect(bodyHash(valid(VALID_BODY, CONTACT_FIELDS))).toBe(expected);
    expect(bodyHash(valid(Object.fromEntries([...pairs].reverse()), CONTACT_FIELDS))).toBe(expected);
  });
});
