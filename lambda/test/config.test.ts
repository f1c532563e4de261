import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_CONTENT_TYPE } from '@site/core/contract';
import { TEST_ORIGIN_SECRET } from '@site/testing/test-values';
import { readConfig, readDeliveryEventConfig, readGuardConfig, readOutsideCheckConfig, readRetryConfig } from '../src/config';
import { handler } from '../src/handlers/send-contact-email';
import { idempotencyHashKeys } from '../src/contact/idempotency';
import { visitorHashKey } from '../src/spam/visitor-limit';
import { stampKeyring, stampKeys } from '../src/spam/stamp';
import { fingerprintKey } from '../src/spam/spam-signals';
import { heldLinkKey } from '../src/held/held-link';
import { checkMarkerKey } from '../src/outside-check/check-marker';
import { contactEvent, VALID_BODY } from '@site/testing/api-events';
import { captureLogs } from '@site/testing/logs';

const COMPLETE = {
  TABLE_NAME: 'contact-messages',
  MAIL_FROM: 'website@firma.example',
  MAIL_TO: 'info@firma.example',
  SES_CONFIGURATION_SET: 'consultancy-site-test',
  RETENTION_DAYS: '30',
  STAGE: 'test',
};

describe('readConfig', () => {
  it('reads every setting', () => {
    expect(readConfig(COMPLETE)).toEqual({
      tableName: 'contact-messages',
      mailFrom: 'website@firma.example',
      mailTo: ['info@firma.example'],
      configurationSet: 'consultancy-site-test',
      retentionDays: 30,
      stage: 'test',
    });
  });

  it('sends to several inboxes when MAIL_TO lists them', () => {
    expect(readConfig({ ...COMPLETE, MAIL_TO: 'a@firma.example, b@firma.example' }).mailTo).toEqual(['a@firma.example', 'b@firma.example']);
  });

  it.each(['TABLE_NAME', 'MAIL_FROM', 'MAIL_TO', 'SES_CONFIGURATION_SET', 'RETENTION_DAYS', 'STAGE'])(
    'names %s when it is missing or blank',
    (name) => {
      expect(() => readConfig({ ...COMPLETE, [name]: undefined })).toThrow(new RegExp(`\\b${name}\\b`));
      expect(() => readConfig({ ...COMPLETE, [name]: '  ' })).toThrow(new RegExp(`\\b${name}\\b`));
    },
  );

  it.each(['MAIL_FROM', 'MAIL_TO'])('names %s when it is not an e-mail address', (name) => {
    expect(() => readConfig({ ...COMPLETE, [name]: 'firma.example' })).toThrow(new RegExp(`\\b${name}\\b`));
  });

  it.each(['0', '-1', '1.5', 'abc', '30 days', '1e3'])('names RETENTION_DAYS when it is %j', (value) => {
    expect(() => readConfig({ ...COMPLETE, RETENTION_DAYS: value })).toThrow(/\bRETENTION_DAYS\b/);
  });
});

const RETRY = { DELIVERY_ALARM_MINUTES: '180', SITE_URL: 'https://www.firma.example', ORIGIN_VERIFY: TEST_ORIGIN_SECRET };

describe('readRetryConfig', () => {
  it('reads the delivery alarm’s minutes and the digest link’s site and key besides every setting of both functions', () => {
    expect(readRetryConfig({ ...COMPLETE, ...RETRY })).toEqual({
      ...readConfig(COMPLETE),
      deliveryAlarmMinutes: 180,
      heldLink: { siteUrl: 'https://www.firma.example', key: heldLinkKey(TEST_ORIGIN_SECRET) },
    });
  });

  it.each([undefined, '', '0', '2.5', 'drie uur'])('names DELIVERY_ALARM_MINUTES when it is %j', (value) => {
    expect(() => readRetryConfig({ ...COMPLETE, ...RETRY, DELIVERY_ALARM_MINUTES: value })).toThrow(/\bDELIVERY_ALARM_MINUTES\b/);
  });

  it.each([undefined, 'www.firma.example', 'ftp://firma.example'])('names SITE_URL when it is %j', (value) => {
    expect(() => readRetryConfig({ ...COMPLETE, ...RETRY, SITE_URL: value })).toThrow(/\bSITE_URL\b/);
  });

  it('names ORIGIN_VERIFY when it is missing: the digest’s link is signed with a key derived from it', () => {
    expect(() => readRetryConfig({ ...COMPLETE, ...RETRY, ORIGIN_VERIFY: undefined })).toThrow(/\bORIGIN_VERIFY\b/);
  });
});

describe('readDeliveryEventConfig', () => {
  it('needs only the table and the stage it counts under: the consumer sends no e-mail', () => {
    expect(readDeliveryEventConfig({ TABLE_NAME: 'contact-messages', STAGE: 'test' })).toEqual({
      tableName: 'contact-messages',
      stage: 'test',
    });
    expect(() => readDeliveryEventConfig({ STAGE: 'test' })).toThrow(/\bTABLE_NAME\b/);
    expect(() => readDeliveryEventConfig({ TABLE_NAME: 'contact-messages' })).toThrow(/\bSTAGE\b/);
  });
});

const GUARD = {
  ORIGIN_VERIFY: TEST_ORIGIN_SECRET,
  VISITOR_LIMIT: '5',
  VISITOR_IPV6_NETWORK_LIMIT: '20',
  VISITOR_WINDOW_SECONDS: '600',
  MAIL_BUDGET_PER_HOUR: '10',
  MAIL_BUDGET_PER_DAY: '40',
  SITE_MAIL_BUDGET_PER_HOUR: '30',
  SITE_MAIL_BUDGET_PER_DAY: '120',
  SPAM_RETENTION_DAYS: '14',
};

describe('readGuardConfig', () => {
  it('reads the origin secret and the visitor limit, and derives the keys addresses and idempotency hashes are made with from the secret', () => {
    expect(readGuardConfig(GUARD)).toEqual({
      origin: { current: TEST_ORIGIN_SECRET },
      checkMarkerKeys: [checkMarkerKey(TEST_ORIGIN_SECRET)],
      visitorLimit: { messages: 5, ipv6Network: 20, windowSeconds: 600 },
      visitorHashKey: visitorHashKey(TEST_ORIGIN_SECRET),
      idempotencyHashKeys: idempotencyHashKeys({ current: TEST_ORIGIN_SECRET }),
      stampKeys: stampKeyring({ current: TEST_ORIGIN_SECRET }),
      fingerprintKey: fingerprintKey(TEST_ORIGIN_SECRET),
      mailBudgets: { ordinary: { perHour: 10, perDay: 40 }, site: { perHour: 30, perDay: 120 } },
      spamRetentionDays: 14,
    });
    const keys = readGuardConfig(GUARD);
    const distinct = [
      keys.checkMarkerKeys[0]!,
      keys.visitorHashKey,
      keys.idempotencyHashKeys.current.key,
      keys.fingerprintKey,
      keys.stampKeys.current.signature,
      keys.stampKeys.current.keySignature,
      heldLinkKey(TEST_ORIGIN_SECRET),
    ];
    expect(new Set(distinct.map((key) => Buffer.from(key).toString('hex'))).size).toBe(distinct.length);
  });

  it('holds the previous secret’s idempotency key during a rotation, so a retry across it is still checked', () => {
    const previous = 'the-origin-secret-before-the-rotation-0123456789';
    const keys = readGuardConfig({ ...GUARD, ORIGIN_VERIFY_PREVIOUS: previous }).idempotencyHashKeys;
    expect(keys.previous).toEqual(idempotencyHashKeys({ current: previous }).current);
    expect(keys.previous!.name).not.toBe(keys.current.name);
  });

  it('holds the previous secret’s stamp keys during a rotation, so a stamp issued before it is still accepted', () => {
    const previous = 'the-origin-secret-before-the-rotation-0123456789';
    const keys = readGuardConfig({ ...GUARD, ORIGIN_VERIFY_PREVIOUS: previous }).stampKeys;
    expect(keys).toEqual({ current: stampKeys(TEST_ORIGIN_SECRET), previous: stampKeys(previous) });
    expect(readGuardConfig(GUARD).stampKeys.previous).toBeUndefined();
  });

  it.each(Object.keys(GUARD))('names %s when it is missing', (name) => {
    expect(() => readGuardConfig({ ...GUARD, [name]: undefined })).toThrow(new RegExp(`\\b${name}\\b`));
  });

  it('accepts the outside check’s marker of the previous secret during a rotation, beside the current one’s', () => {
    const previous = 'the-origin-secret-before-the-rotation-0123456789';
    expect(readGuardConfig({ ...GUARD, ORIGIN_VERIFY_PREVIOUS: previous }).checkMarkerKeys).toEqual([
      checkMarkerKey(TEST_ORIGIN_SECRET),
      checkMarkerKey(previous),
    ]);
  });
});

describe('readOutsideCheckConfig', () => {
  const CHECK = { ORIGIN_VERIFY: TEST_ORIGIN_SECRET, SITE_URL: 'https://www.streepjevoorfinance.nl', STAGE: 'test' };

  it('reads the site, the stage and the marker’s key from the origin secret', () => {
    expect(readOutsideCheckConfig(CHECK)).toEqual({
      siteUrl: 'https://www.streepjevoorfinance.nl',
      stage: 'test',
      markerKey: checkMarkerKey(TEST_ORIGIN_SECRET),
    });
  });

  it.each(Object.keys(CHECK))('names %s when it is missing, and never the secret', (name) => {
    expect(() => readOutsideCheckConfig({ ...CHECK, [name]: undefined })).toThrow(
      new RegExp(`^Environment variable ${name} is not set\\.$`),
    );
  });

  it.each(['www.streepjevoorfinance.nl', 'https://www.streepjevoorfinance.nl/', 'https://www.streepjevoorfinance.nl/nl', 'ftp://x.nl'])(
    'refuses SITE_URL %s, saying what it takes',
    (siteUrl) => {
      expect(() => readOutsideCheckConfig({ ...CHECK, SITE_URL: siteUrl })).toThrow(
        'Environment variable SITE_URL must be the site’s address, such as https://www.example.nl, without a path or a trailing slash.',
      );
    },
  );
});

describe("Lambda's entry without configuration", () => {
  const saved = { ...process.env };
  const logs = captureLogs();

  // What it reads is the environment Lambda gives it: this test alone sets process.env.
  beforeAll(() => {
    for (const name of [...Object.keys(COMPLETE), ...Object.keys(GUARD)]) delete process.env[name];
  });

  afterAll(() => {
    process.env = saved;
    logs.restore();
  });

  it('without the origin secret refuses every request with 503 before reading it, naming the variable', async () => {
    for (const event of [
      contactEvent({ body: VALID_BODY }),
      contactEvent({ body: VALID_BODY, direct: true }),
      contactEvent({ method: 'GET' }),
    ]) {
      expect((await handler(event)).statusCode).toBe(503);
    }
    expect(logs.entries()).toEqual(
      Array(3).fill(
        expect.objectContaining({ level: 'error', outcome: 'config_error', status: 503, error: expect.stringMatching(/ORIGIN_VERIFY/) }),
      ),
    );
    logs.clear();
  });

  it('stores nothing, answers 503 and logs which variable is missing, never a value', async () => {
    Object.assign(process.env, GUARD);
    const result = await handler(contactEvent({ body: VALID_BODY }));
    expect(result.statusCode).toBe(503);
    expect(JSON.parse(result.body ?? '')).toEqual({
      error: 'Uw bericht kon nu niet worden opgeslagen. Probeer het over enkele minuten opnieuw.',
    });
    expect(logs.entries()).toEqual([
      expect.objectContaining({ level: 'error', outcome: 'config_error', status: 503, error: expect.stringMatching(/TABLE_NAME/) }),
    ]);
    expect(logs.raw()).not.toContain(TEST_ORIGIN_SECRET);
    logs.clear();
  });

  it('counts the refused message as not stored, under the stage when that much is set', async () => {
    Object.assign(process.env, { STAGE: 'test' });
    await handler(contactEvent({ body: VALID_BODY }));
    expect(logs.metricLines().map(({ _aws, ...values }) => values)).toEqual([{ Stage: 'test', Received: 1, NotStored: 1 }]);
    delete process.env.STAGE;
    logs.clear();
  });

  it('answers a form post with the form again, what was typed still in it', async () => {
    const result = await handler(
      contactEvent({ headers: { 'content-type': FORM_CONTENT_TYPE }, body: new URLSearchParams(VALID_BODY).toString() }),
    );
    expect(result).toMatchObject({ statusCode: 503, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
    expect(result.body).toContain(`value="${VALID_BODY.email}"`);
    expect(logs.entries().at(-1)).toMatchObject({ outcome: 'config_error', format: 'form', status: 503 });
  });

  it('reads the environment again once it is fixed', async () => {
    Object.assign(process.env, COMPLETE);
    // Refused for what was typed: the function is configured and reads the request (without reaching AWS).
    const result = await handler(contactEvent({ body: { ...VALID_BODY, email: 'geen adres' } }));
    expect(result.statusCode).toBe(400);
    expect(logs.entries().at(-1)).toMatchObject({ outcome: 'invalid', status: 400 });
  });
});
