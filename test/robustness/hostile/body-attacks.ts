/**
 * Attacks in what the JSON body says: every field attacked at once (CR/LF, HTML, limits,
 * types, absence) with keys the visitor must never set, prototype pollution, and a filled
 * honeypot.
 */
import fc from 'fast-check';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { HONEYPOT_FIELD, type ContactField } from '@site/core/contract';
import { EMAIL_FIELDS, FIELDS, validMessage } from '../contact-fields';
import { enc, marker, objectText, post, type Draft } from './case';
import { fieldValue } from './payloads';

/** Every field attacked, independently: CR/LF, HTML, limits, types, absence. */
export const bodyFields = fc
  .tuple(
    fc.record(
      Object.fromEntries(FIELDS.map((field) => [field, fc.option(fieldValue(field), { freq: 8, nil: undefined })])) as Record<
        ContactField,
        fc.Arbitrary<unknown>
      >,
    ),
    fc.constantFrom<string[]>([], ['status'], ['id'], ['attempts', 'expiresAt'], ['receivedAt', 'sesMessageId'], ['extra']),
  )
  .map(([values, extras]): Draft => {
    const entries: [string, unknown][] = FIELDS.filter((field) => values[field] !== undefined).map((field) => [field, values[field]]);
    // Mass assignment: fields the visitor must never be able to set on the stored item.
    const injected: Record<string, unknown> = {
      status: 'emailed',
      id: 'idempotency#x',
      attempts: -1,
      expiresAt: 1,
      receivedAt: 'gisteren',
      sesMessageId: 'x',
      extra: '<script>x</script>',
    };
    for (const key of extras) entries.push([key, injected[key]]);
    return post({ kind: 'fields', variant: `fields+${extras.join('+') || 'none'}`, body: enc(objectText(entries)), expect: [200, 400] });
  });

/** The field an object is nested into: one the visitor may leave out, so a refusal is the object's doing. */
const NESTED_INTO = FIELDS.find((field) => !CONTACT_FIELDS[field].required) ?? FIELDS[0];

/** Prototype pollution through the body: __proto__, constructor.prototype, at the top and nested. */
export const prototypePollution = fc
  .tuple(marker, fc.constantFrom('__proto__', 'constructor', 'prototype'), fc.constantFrom('top', 'nested', 'field', 'duplicate'))
  .map(([m, key, where]): Draft => {
    const pollution =
      key === 'constructor' ? { prototype: { polluted: 'yes', status: 'emailed' } } : { polluted: 'yes', status: 'emailed', isAdmin: true };
    let entries: [string, unknown][] = validMessage(m);
    if (where === 'top') entries = [[key, pollution], ...entries];
    if (where === 'nested') entries = entries.map(([k, v]) => (k === NESTED_INTO ? [k, { [key]: pollution }] : [k, v]));
    if (where === 'field') entries = entries.map(([k, v]) => (k === FIELDS[0] ? [k, key] : [k, v]));
    if (where === 'duplicate')
      entries = [...entries, [key, pollution], ...EMAIL_FIELDS.map((field): [string, unknown] => [field, 'second@example.nl'])];
    return post({ kind: 'proto', variant: `${key}@${where}`, body: enc(objectText(entries)), expect: [200, 400] });
  });

/**
 * A filled honeypot is a spam signal, never a refusal: a valid message is answered 200 like
 * any other, stored and held as suspect (checks.ts); an invalid one is refused as any other.
 */
export const honeypot = fc
  .tuple(marker, fc.constantFrom<unknown>('http://spam.test', 'x', 1, true, { a: 1 }, ['x']), fc.boolean())
  .map(([m, value, invalidToo]): Draft => {
    const honeypotMarker = `${m}HONEY`;
    const entries = validMessage(honeypotMarker).map(([k, v]): [string, unknown] =>
      invalidToo && EMAIL_FIELDS.includes(k) ? [k, 'not-an-address'] : [k, v],
    );
    return post({
      kind: 'honeypot',
      variant: `${typeof value}${invalidToo ? ', invalid otherwise' : ''}`,
      body: enc(objectText([...entries, [HONEYPOT_FIELD, value]])),
      expect: [invalidToo ? 400 : 200],
      honeypotMarker,
    });
  });
