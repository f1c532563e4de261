import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readConfig } from '../src/config';
import { contactEvent, VALID_BODY } from './support/events';
import { captureLogs } from './support/logs';

const COMPLETE = {
  TABLE_NAME: 'contact-messages',
  MAIL_FROM: 'website@firma.example',
  MAIL_TO: 'info@firma.example',
  RETENTION_DAYS: '30',
};

describe('readConfig', () => {
  it('reads every setting', () => {
    expect(readConfig(COMPLETE)).toEqual({
      tableName: 'contact-messages',
      mailFrom: 'website@firma.example',
      mailTo: ['info@firma.example'],
      retentionDays: 30,
    });
  });

  it('sends to several inboxes when MAIL_TO lists them', () => {
    expect(readConfig({ ...COMPLETE, MAIL_TO: 'a@firma.example, b@firma.example' }).mailTo).toEqual(['a@firma.example', 'b@firma.example']);
  });

  it.each(['TABLE_NAME', 'MAIL_FROM', 'MAIL_TO', 'RETENTION_DAYS'])('names %s when it is missing or blank', (name) => {
    expect(() => readConfig({ ...COMPLETE, [name]: undefined })).toThrow(new RegExp(`\\b${name}\\b`));
    expect(() => readConfig({ ...COMPLETE, [name]: '  ' })).toThrow(new RegExp(`\\b${name}\\b`));
  });

  it.each(['MAIL_FROM', 'MAIL_TO'])('names %s when it is not an e-mail address', (name) => {
    expect(() => readConfig({ ...COMPLETE, [name]: 'firma.example' })).toThrow(new RegExp(`\\b${name}\\b`));
  });

  it.each(['0', '-1', '1.5', 'abc', '30 days', '1e3'])('names RETENTION_DAYS when it is %j', (value) => {
    expect(() => readConfig({ ...COMPLETE, RETENTION_DAYS: value })).toThrow(/\bRETENTION_DAYS\b/);
  });
});

describe('the handler without configuration', () => {
  const saved = { ...process.env };
  const logs = captureLogs();

  beforeAll(() => {
    vi.resetModules();
    for (const name of Object.keys(COMPLETE)) delete process.env[name];
  });

  afterAll(() => {
    process.env = saved;
    logs.restore();
  });

  it('stores nothing, answers 503 and logs which variable is missing', async () => {
    const { handler } = await import('../src/handlers/send-contact-email');
    const result = await handler(contactEvent({ body: VALID_BODY }));
    expect(result.statusCode).toBe(503);
    expect(JSON.parse(result.body ?? '')).toEqual({
      error: 'Uw bericht kon nu niet worden opgeslagen. Probeer het over enkele minuten opnieuw.',
    });
    expect(logs.entries()).toEqual([
      expect.objectContaining({ level: 'error', outcome: 'config_error', status: 503, error: expect.stringMatching(/TABLE_NAME/) }),
    ]);
  });

  it('reads the environment again once it is fixed', async () => {
    const { config } = await import('../src/config');
    expect(() => config()).toThrow(/TABLE_NAME/);
    Object.assign(process.env, COMPLETE);
    expect(config().retentionDays).toBe(30);
  });
});
