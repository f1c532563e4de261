/**
 * The contact-field list is the one description of the fields: a field added to it (the
 * shared row in @site/testing/fixtures/fields) is validated, hashed, stored and e-mailed
 * without any other change. `npm run messages` shows it (ops/test/added-field.test.ts); the
 * site's side of the same walk (the form, its check page, the privacy statement) is in
 * frontend/src/added-field.test.tsx.
 */
import { createHash, createHmac } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { CONTACT_FIELDS, tooLongMessage } from '@site/core/content/contact-fields';
import { FIELD_LIMITS, REQUIRED_FIELDS } from '@site/core/contract';
import { type FieldList } from '@site/core/field-spec';
import { FIELDS_WITH_JOB_TITLE as WITH_JOB_TITLE } from '@site/testing/fixtures/fields';
import { TEST_ORIGIN_SECRET } from '@site/testing/test-values';
import { createContactHandler } from '../src/contact/contact-handler';
import { bodyHash as keyedHash, idempotencyHashKeys } from '../src/contact/idempotency';
import { validateContactMessage } from '../src/contact/schema';
import { answer, contactEvent, VALID_BODY } from '@site/testing/api-events';
import { useLocalAws } from './support/contact-stack';

function valid<T extends FieldList>(body: unknown, table: T) {
  const result = validateContactMessage(body, table);
  if (!result.ok) throw new Error(`expected a valid message: ${JSON.stringify(result.fields)}`);
  return result.value;
}

const HASH_KEY = idempotencyHashKeys({ current: TEST_ORIGIN_SECRET }).current;
const bodyHash = (message: Readonly<Record<string, string | undefined>>) => keyedHash(HASH_KEY, message);

const SENT = { ...VALID_BODY, functie: '  Hoofd <Control> & "Finance"  ' };
const TYPED = 'Hoofd <Control> & "Finance"';

describe('a field added to the table', () => {
  it('is kept by validation, trimmed, and checked against its own limit', () => {
    expect(valid(SENT, WITH_JOB_TITLE).functie).toBe(TYPED);
    expect(validateContactMessage({ ...VALID_BODY, functie: 'x'.repeat(101) }, WITH_JOB_TITLE)).toEqual({
      ok: false,
      fields: { functie: 'Uw functie is te lang (maximaal 100 tekens).' },
    });
    expect(tooLongMessage(WITH_JOB_TITLE.functie)).toBe('Uw functie is te lang (maximaal 100 tekens).');
    // The site's own table knows nothing of it: unknown keys never reach storage.
    expect(valid(SENT, CONTACT_FIELDS)).not.toHaveProperty('functie');
  });

  it('changes the idempotency hash with its value, and leaves the hash of every message without it as it was', () => {
    const withIt = valid(SENT, WITH_JOB_TITLE);
    const other = valid({ ...SENT, functie: 'Controller' }, WITH_JOB_TITLE);
    const without = valid(VALID_BODY, WITH_JOB_TITLE);
    expect(new Set([bodyHash(withIt), bodyHash(other), bodyHash(without)]).size).toBe(3);
    expect(bodyHash(without)).toBe(bodyHash(valid(VALID_BODY, CONTACT_FIELDS)));
    expect(bodyHash(valid({ ...VALID_BODY, functie: '' }, WITH_JOB_TITLE))).toBe(bodyHash(valid(VALID_BODY, CONTACT_FIELDS)));
  });

  describe('through the handler built with that table', () => {
    const stack = useLocalAws();
    beforeEach(() => stack.aws.clearEmails());

    const handler = () => createContactHandler({ config: stack.aws.config, clients: stack.aws.clients, fields: WITH_JOB_TITLE });

    it('is stored, and shown escaped in the text and the HTML of the e-mail the firm receives', async () => {
      const response = answer(await handler()(contactEvent({ body: SENT })));
      expect(response.statusCode).toBe(200);
      expect(await stack.aws.message(response.json.id!)).toMatchObject({ functie: TYPED, status: 'emailed' });

      const [email, ...others] = await stack.aws.sentEmails();
      expect(others).toEqual([]);
      expect(email!.body.text).toContain(`Functie: ${TYPED}\n`);
      expect(email!.body.html).toContain('Functie</p>');
      expect(email!.body.html).toContain('Hoofd &lt;Control&gt; &amp; &quot;Finance&quot;');
      expect(email!.body.html).not.toContain('<Control>');
    });

    it('is refused past its limit with its own Dutch sentence, and nothing is stored', async () => {
      const response = answer(await handler()(contactEvent({ body: { ...VALID_BODY, functie: 'x'.repeat(101) } })));
      expect(response.statusCode).toBe(400);
      expect(response.json.fields).toEqual({ functie: 'Uw functie is te lang (maximaal 100 tekens).' });
      expect((await stack.aws.messages()).map((stored) => (stored as unknown as Record<string, unknown>).functie)).not.toContain(
        'x'.repeat(101),
      );
    });
  });
});

describe('the idempotency hash', () => {
  const pairs = Object.entries(VALID_BODY).sort(([a], [b]) => (a < b ? -1 : 1));

  it('is over the fields present, as name/value pairs sorted by name, whatever the order they came in', () => {
    const expected = createHmac('sha256', HASH_KEY.key).update(JSON.stringify(pairs)).digest('hex');
    expect(bodyHash(valid(VALID_BODY, CONTACT_FIELDS))).toBe(expected);
    expect(bodyHash(valid(Object.fromEntries([...pairs].reverse()), CONTACT_FIELDS))).toBe(expected);
  });

  it('is keyed with the stage’s secret, so nobody with only the table can confirm a guess of a message', () => {
    const hash = bodyHash(valid(VALID_BODY, CONTACT_FIELDS));
    expect(hash).not.toBe(createHash('sha256').update(JSON.stringify(pairs)).digest('hex'));
    const otherStage = idempotencyHashKeys({ current: 'the-origin-secret-of-another-stage-0123456789' }).current;
    expect(keyedHash(otherStage, valid(VALID_BODY, CONTACT_FIELDS))).not.toBe(hash);
    expect(otherStage.name).not.toBe(HASH_KEY.name);
    expect(HASH_KEY.name).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe('the site’s table', () => {
  it('gives the limits and required fields the rest of the code has always used', () => {
    expect(FIELD_LIMITS).toEqual({ name: 100, email: 254, phone: 40, company: 150, message: 5000 });
    expect(REQUIRED_FIELDS).toEqual(['name', 'email', 'message']);
  });
});
