import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { securityHeaders } from '@site/core/node/security-headers';
import { CACHE_CONTROL } from '@site/core/cache-control';
import { API_PATH, CHALLENGE_PATH } from '@site/core/contract';
import { makeSiteDir, SITE_INLINE_SCRIPT } from '@site/testing/fixtures/site';
import { runStandIns } from '@site/testing/stand-ins';
import { EPHEMERAL_STACK, startLocalStack, type LocalStack } from '../src/stack';

describe('local edge', () => {
  let stack: LocalStack;
  let site: string;
  const siteDir = makeSiteDir();

  beforeAll(async () => {
    stack = await startLocalStack({ ...EPHEMERAL_STACK, ...runStandIns(), siteDir });
    site = stack.urls.site;
  });
  afterAll(() => stack?.close());

  it('serves every page and asset with the security headers CloudFront adds', async () => {
    for (const path of ['/', '/assets/index-Ab12Cd34.js', '/robots.txt', '/does-not-exist', API_PATH]) {
      const response = await fetch(site + path);
      for (const [name, value] of Object.entries(securityHeaders(siteDir))) {
        expect(response.headers.get(name), `${name} on ${path}`).toBe(value);
      }
    }
  });

  it('allows the inline script its pages carry by its hash in the CSP, and no other inline script', async () => {
    const hash = createHash('sha256').update(SITE_INLINE_SCRIPT).digest('base64');
    const csp = (await fetch(`${site}/`)).headers.get('content-security-policy')!;
    expect(csp.split('; ')).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(csp).not.toContain('unsafe-inline');
  });

  it('revalidates HTML and caches hashed assets for a year, compressed', async () => {
    const html = await fetch(`${site}/`);
    expect(html.status).toBe(200);
    expect(html.headers.get('cache-control')).toBe(CACHE_CONTROL.html);
    expect(await html.text()).toContain('Welkom');

    const asset = await fetch(`${site}/assets/index-Ab12Cd34.js`, { headers: { 'accept-encoding': 'br' } });
    expect(asset.headers.get('cache-control')).toBe(CACHE_CONTROL.hashedAsset);
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);

    const robots = await fetch(`${site}/robots.txt`);
    expect(robots.headers.get('cache-control')).toBe(CACHE_CONTROL.other);
  });

  it('answers a repeated request with 304 when the ETag matches', async () => {
    const first = await fetch(`${site}/`);
    const second = await fetch(`${site}/`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(second.status).toBe(304);
  });

  it('answers unknown paths with the prerendered 404 page and status 404', async () => {
    for (const path of ['/does-not-exist', '/diensten/', '/index', '/%E0%A4%A']) {
      const response = await fetch(site + path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
      expect(await response.text()).toContain('Oops! Page not found');
    }
  });

  it('serves a page at its clean URL, as the CloudFront Functions of the stack do', async () => {
    for (const path of ['/privacy', '/privacy.html']) {
      const response = await fetch(site + path);
      expect(response.status, path).toBe(200);
      expect(await response.text()).toContain('Privacyverklaring');
    }
  });

  it('passes a missing hashed asset to the bucket, which answers 404 (old asset URLs are never rewritten)', async () => {
    const response = await fetch(`${site}/assets/gone-123.js`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('NoSuchKey');
  });

  it('answers a revalidated 404 page with 304, as the viewer-response function leaves it', async () => {
    const first = await fetch(`${site}/does-not-exist`);
    const again = await fetch(`${site}/does-not-exist`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('refuses writes to the site and answers unknown API routes as API Gateway does', async () => {
    expect((await fetch(`${site}/`, { method: 'POST' })).status).toBe(405);
    const unknown = await fetch(`${site}/api/other`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Not Found' });
  });

  it('hands the API path to the handler, whose own 4xx answers pass through untouched', async () => {
    const response = await fetch(site + API_PATH, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hallo' });
    expect(response.status).toBe(415);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await response.json()) as { error: unknown }).error).toEqual(expect.any(String));
  });

  it('hands a GET of the challenge path to the function, which answers a fresh signed challenge each time, never cached', async () => {
    const ask = async () => {
      const response = await fetch(site + CHALLENGE_PATH);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      return ((await response.json()) as { challenge: { parameters: { nonce: string }; signature: string } }).challenge;
    };
    const [first, second] = [await ask(), await ask()];
    expect(first.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(second.parameters.nonce).not.toBe(first.parameters.nonce);
    // The route is GET only, as API Gateway's: a POST there matches no route.
    const posted = await fetch(site + CHALLENGE_PATH, { method: 'POST' });
    expect(posted.status).toBe(404);
    expect(await posted.json()).toEqual({ message: 'Not Found' });
  });

  it('refuses a payload over API Gateway’s own limit without invoking the function', async () => {
    const response = await fetch(site + API_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(11 * 1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: 'Request Entity Too Large' });
  });

  it('says which variable to change when a port is taken', async () => {
    const port = Number(new URL(site).port);
    await expect(
      startLocalStack({ port, dynamoPort: 0, sesPort: 0, dataDir: null, siteDir: makeSiteDir(), retryIntervalMs: 0, quiet: true }),
    ).rejects.toThrow(`Port ${port} is in use; set PORT to a free port`);
    const dynamoPort = Number(new URL(stack.urls.dynamodb).port);
    await expect(startLocalStack({ port: 0, dynamoPort, sesPort: 0, dataDir: null, siteDir: makeSiteDir(), quiet: true })).rejects.toThrow(
      `set DYNAMODB_PORT`,
    );
  });
});
