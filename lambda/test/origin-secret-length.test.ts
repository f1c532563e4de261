/**
 * The origin secret's minimum length is a minimum: a secret of exactly that length is
 * taken, as the current value and as the previous one during a rotation, and the function
 * built with it answers the requests CloudFront forwards with it. One character fewer is
 * refused. Were the boundary off by one, such a secret would be refused at start-up and
 * every request would fail.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_ENV } from '@site/core/function-env';

import { originSecretsFrom, readContactConfig } from '../src/config';
import { MIN_ORIGIN_SECRET_LENGTH } from '../src/contact/origin-verify';
import { answer, cloudFrontOriginHeaders, contactEvent, VALID_BODY } from '@site/testing/api-events';
import { useContactStack } from './support/contact-stack';

/** A generated secret of exactly `length` characters. */
const secretOf = (length: number) => randomBytes(length).toString('base64url').slice(0, length);

const CURRENT = secretOf(MIN_ORIGIN_SECRET_LENGTH);
const PREVIOUS = secretOf(MIN_ORIGIN_SECRET_LENGTH);

describe('originSecretsFrom at the minimum length', () => {
  it('takes a current and a previous value of exactly the minimum length', () => {
    expect(CURRENT).toHaveLength(MIN_ORIGIN_SECRET_LENGTH);
    expect(originSecretsFrom({ [ORIGIN_VERIFY_ENV.current]: CURRENT })).toEqual({ current: CURRENT });
    expect(originSecretsFrom({ [ORIGIN_VERIFY_ENV.current]: CURRENT, [ORIGIN_VERIFY_ENV.previous]: PREVIOUS })).toEqual({
      current: CURRENT,
      previous: PREVIOUS,
    });
  });

  it('refuses one character fewer, for either', () => {
    const short = CURRENT.slice(1);
    expect(() => originSecretsFrom({ [ORIGIN_VERIFY_ENV.current]: short })).toThrow(/must be at least \d+ characters long/);
    expect(() => originSecretsFrom({ [ORIGIN_VERIFY_ENV.current]: CURRENT, [ORIGIN_VERIFY_ENV.previous]: short })).toThrow(
      /must be at least \d+ characters long/,
    );
  });
});

describe('a function given secrets of exactly the minimum length', () => {
  const stack = useContactStack((aws) =>
    readContactConfig({ ...aws.lambdaEnv, [ORIGIN_VERIFY_ENV.current]: CURRENT, [ORIGIN_VERIFY_ENV.previous]: PREVIOUS }),
  );

  /** The event of a request CloudFront forwarded with `secret` as the origin header. */
  const forwardedWith = (secret: string, viewer: string) => {
    const headers = cloudFrontOriginHeaders(
      { 'content-type': 'application/json' },
      { address: viewer, port: 40_000, scheme: 'https' },
      secret,
    );
    return contactEvent({ direct: true, headers: headers as Record<string, string>, body: VALID_BODY });
  };

  it('answers the requests CloudFront forwards with either, and stores and e-mails them', async () => {
    expect(answer(await stack.handler(forwardedWith(CURRENT, '198.51.100.61'))).statusCode).toBe(200);
    expect(answer(await stack.handler(forwardedWith(PREVIOUS, '198.51.100.62'))).statusCode).toBe(200);
    expect(await stack.aws.messages()).toHaveLength(2);
    expect(await stack.aws.sentEmails()).toHaveLength(2);
  });
});
