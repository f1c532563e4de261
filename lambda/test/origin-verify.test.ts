/**
 * The origin check on its own: which values it accepts, what configuration it needs, and
 * that no sent value (any length, any characters) can make it throw instead of refuse.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_ENV } from '@site/core/function-env';
import { originSecretsFrom } from '../src/config';
import { isFromCloudFront, MIN_ORIGIN_SECRET_LENGTH } from '../src/contact/origin-verify';

const CURRENT = randomBytes(32).toString('base64url');
const PREVIOUS = randomBytes(32).toString('base64url');

describe('isFromCloudFront', () => {
  it('accepts exactly the current value', () => {
    expect(isFromCloudFront(CURRENT, { current: CURRENT })).toBe(true);
    for (const sent of [undefined, '', CURRENT.slice(0, -1), `${CURRENT}x`, ` ${CURRENT}`, CURRENT.toUpperCase(), PREVIOUS]) {
      expect(isFromCloudFront(sent, { current: CURRENT }), JSON.stringify(sent)).toBe(false);
    }
  });

  it('during a rotation accepts the previous value too, and nothing else', () => {
    const secrets = { current: CURRENT, previous: PREVIOUS };
    expect(isFromCloudFront(CURRENT, secrets)).toBe(true);
    expect(isFromCloudFront(PREVIOUS, secrets)).toBe(true);
    expect(isFromCloudFront(`${CURRENT},${PREVIOUS}`, secrets)).toBe(false);
    expect(isFromCloudFront(undefined, secrets)).toBe(false);
  });

  it('refuses, never throws, whatever is sent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (sent) => {
        expect(isFromCloudFront(sent, { current: CURRENT, previous: PREVIOUS })).toBe(false);
      }),
    );
  });
});

describe('originSecretsFrom', () => {
  it('reads the current value, and the previous one when a rotation is under way', () => {
    expect(originSecretsFrom({ [ORIGIN_VERIFY_ENV.current]: CURRENT })).toEqual({ current: CURRENT });
    expect(originSecretsFrom({ [ORIGIN_VERIFY_ENV.current]: CURRENT, [ORIGIN_VERIFY_ENV.previous]: PREVIOUS })).toEqual({
      current: CURRENT,
      previous: PREVIOUS,
    });
  });

  it('names the missing variable', () => {
    expect(() => originSecretsFrom({})).toThrow('Environment variable ORIGIN_VERIFY is not set.');
    expect(() => originSecretsFrom({ ORIGIN_VERIFY: '  ' })).toThrow('ORIGIN_VERIFY is not set');
  });

  it('refuses a value too short to be a generated secret, without repeating it', () => {
    const short = 'a'.repeat(MIN_ORIGIN_SECRET_LENGTH - 1);
    for (const env of [{ ORIGIN_VERIFY: short }, { ORIGIN_VERIFY: CURRENT, ORIGIN_VERIFY_PREVIOUS: short }]) {
      const error = (() => {
        try {
          originSecretsFrom(env);
        } catch (thrown) {
          return thrown as Error;
        }
      })();
      expect(error?.message).toMatch(/must be at least 32 characters long/);
      expect(error?.message).not.toContain(short);
    }
  });
});
