/**
 * The smoke check against small fake stages: one that answers as a deployed stage does, and
 * broken ones (wrong headers, a 404 that answers 200, S3's 403 for a missing asset, an API
 * that does not answer or lets a direct call through), through runSmoke and through the
 * command itself (table, exit codes, one-line errors). The local stack's own run is in
 * local/test/smoke.test.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contact, contactForm, notFound, seo } from '@site/frontend/content';
import { API_PATH, REQUIRED_FIELDS } from '@site/core/contract';
import { ERROR_TEXT } from '@site/core/content/api-answers';
import { ORIGIN_VERIFY_HEADER } from '@site/core/api-origin';
import { validateContactMessage } from '@site/lambda/schema';
import { CACHE_CONTROL, cacheControlFor } from '@site/core/cache-control';
import { brandFiles } from '@site/frontend/brand-files';
import { renderHead } from '@site/frontend/head';
import { scriptHash, securityHeadersFor } from '@site/core/node/security-headers';
import { hashedAssetPath, htmlEscaped } from '../smoke/checks';
import { baseUrl, formatReport, runSmoke, Unreachable, type SmokeResult } from '../smoke/run';
import { runScript } from '@site/testing/run-script';
import { createChallenge, randomInt } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { CHALLENGE_PATH } from '@site/core/contract';
import { STAMP_DIFFICULTY } from '@site/core/spam';

const ASSET = '/assets/index-Ab12Cd34.js';

interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** A stage's answers by request; a test replaces the ones it breaks. */
type Route = (req: IncomingMessage, body: string) => Reply | 'hang';

/** The fake stage's pages carry no inline script, so its policy lists no hash. */
const SECURITY_HEADERS = securityHeadersFor([]);
const html = (texts: string[], extra = '') =>
  `<!doctype html>\n<html lang="nl"><head>${extra}</head><body><div id="root">${texts.map((text) => `<p>${htmlEscaped(text)}</p>`).join('')}</div></body></html>`;
const page = (status: number, body: string): Reply => ({
  status,
  headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': CACHE_CONTROL.html },
  body,
});
const apiJson = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  body: JSON.stringify(body),
});

/** The icons, manifest and share picture as the build makes them, by path. */
const BRAND = await brandFiles();
const BRAND_TYPES: Record<string, string> = {
  png: 'image/png',
  ico: 'image/vnd.microsoft.icon',
  svg: 'image/svg+xml',
  webmanifest: 'application/manifest+json',
};
const brandFile = (path: string): Reply => ({
  status: 200,
  headers: { ...SECURITY_HEADERS, 'Content-Type': BRAND_TYPES[path.split('.').pop()!]!, 'Cache-Control': cacheControlFor(path) },
  body: BRAND.get(path)!,
});

/** A challenge as the contact function signs one, with a counter a solve finds at once. */
const CHALLENGE = await createChallenge({
  algorithm: STAMP_DIFFICULTY.algorithm,
  cost: STAMP_DIFFICULTY.cost,
  counter: randomInt(50, 0),
  deriveKey,
  data: { issuedAt: 1_800_000_000, expiresAt: 1_800_003_600, id: 'smoke' },
  hmacSignatureSecret: 'signature-of-the-fake-stage',
  hmacKeySignatureSecret: 'key-signature-of-the-fake-stage',
});

const WORKING = {
  home: () =>
    page(
      200,
      html(
        [contact.headline, contactForm.title, contactForm.submit],
        `${renderHead('home')}<script type="module" src="${ASSET}"></script>`,
      ),
    ),
  brand: (req: IncomingMessage) => brandFile(req.url!),
  asset: () => ({
    status: 200,
    headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/javascript', 'Cache-Control': CACHE_CONTROL.hashedAsset },
  }),
  missingAsset: () => ({ status: 404, headers: { 'Content-Type': 'application/xml' }, body: '<Error><Code>NoSuchKey</Code></Error>' }),
  notFound: () => page(404, html([notFound.headline, notFound.text])),
  apiPost: () =>
    apiJson(400, {
      error: ERROR_TEXT.invalidFields,
      fields: Object.fromEntries(REQUIRED_FIELDS.map((field) => [field, 'Vul dit veld in.'])),
    }),
  apiOther: () => apiJson(405, { error: ERROR_TEXT.methodNotAllowed }, { Allow: 'POST' }),
  challenge: () => apiJson(200, { challenge: CHALLENGE }),
  direct: () => apiJson(403, { error: ERROR_TEXT.notThroughSite }),
} satisfies Record<string, Route>;

interface FakeStage {
  url: string;
  /** Every request the fake received: method, path, headers and body. */
  received: { method: string; path: string; headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

/** Fakes made inside a test, closed after it. */
const perTest: Server[] = [];

async function fakeStage(
  overrides: Partial<Record<keyof typeof WORKING, Route>> = {},
  { role = 'site', closeAfterTest = true }: { role?: 'site' | 'api'; closeAfterTest?: boolean } = {},
): Promise<FakeStage> {
  const routes = { ...WORKING, ...overrides };
  const received: FakeStage['received'] = [];
  const route = (req: IncomingMessage): Route => {
    const path = req.url ?? '/';
    if (role === 'api') return routes.direct;
    if (path === '/') return routes.home;
    if (path === ASSET) return routes.asset;
    if (BRAND.has(path)) return routes.brand;
    if (path.startsWith('/assets/')) return routes.missingAsset;
    if (path === API_PATH) return req.method === 'POST' ? routes.apiPost : routes.apiOther;
    if (path === CHALLENGE_PATH) return routes.challenge;
    return routes.notFound;
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const reply = route(req)(req, body);
      if (reply === 'hang') return;
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body);
    });
  });
  if (closeAfterTest) perTest.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

afterEach(async () => {
  await Promise.all(
    perTest.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

const failures = (results: SmokeResult[]) =>
  Object.fromEntries(results.filter((result) => result.problems.length > 0).map((result) => [result.name, result.problems]));

describe('against a stage that works', () => {
  it('passes every check, the direct call to the API included', async () => {
    const site = await fakeStage();
    const api = await fakeStage({}, { role: 'api' });
    const results = await runSmoke({ site: site.url, api: api.url });
    expect(failures(results)).toEqual({});
    expect(results.map((result) => result.name)).toEqual([
      'home page',
      'hashed asset',
      'share picture',
      'touch icon',
      'favicon.ico',
      'web manifest',
      'unknown page',
      'missing asset',
      'API through CloudFront',
      'API method',
      'API around CloudFront',
      'challenge, as the check',
    ]);
    expect(results[1]!.request).toBe(`GET ${ASSET}`);
  });

  it('takes the outside check’s steps up to the challenge, solving it as the page does, and names the step that fails', async () => {
    const site = await fakeStage();
    await runSmoke({ site: site.url });
    expect(site.received.filter((request) => request.path === CHALLENGE_PATH).map((request) => request.method)).toEqual(['GET']);
    const refusing = await fakeStage({ challenge: () => apiJson(403, { error: ERROR_TEXT.notThroughSite }) });
    expect(failures(await runSmoke({ site: refusing.url }))).toEqual({
      'challenge, as the check': [`challenge: GET ${CHALLENGE_PATH} answered 403: ${ERROR_TEXT.notThroughSite}`],
    });
  });

  it('sends nothing that could be stored or e-mailed, and never pretends to be CloudFront', async () => {
    const site = await fakeStage();
    const api = await fakeStage({}, { role: 'api' });
    await runSmoke({ site: site.url, api: api.url });
    const posts = [...site.received, ...api.received].filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(2);
    for (const post of posts) expect(validateContactMessage(JSON.parse(post.body)).ok).toBe(false);
    for (const request of [...site.received, ...api.received]) expect(request.headers[ORIGIN_VERIFY_HEADER.toLowerCase()]).toBeUndefined();
  });

  it('asks for paths of its own each run, so no cached answer passes for a fresh one', async () => {
    const site = await fakeStage();
    await runSmoke({ site: site.url });
    await runSmoke({ site: site.url });
    const unknown = site.received.filter((request) => request.path.includes('smoke-check-')).map((request) => request.path);
    expect(new Set(unknown).size).toBe(4);
  });
});

describe('against a broken stage', () => {
  it('names each wrong or missing header', async () => {
    const site = await fakeStage({
      home: () => {
        const reply = WORKING.home();
        const { 'Strict-Transport-Security': _hsts, ...headers } = reply.headers!;
        return { ...reply, headers: { ...headers, 'Content-Security-Policy': 'default-src *', 'Cache-Control': 'public, max-age=3600' } };
      },
      asset: () => ({ status: 200, headers: { ...SECURITY_HEADERS, 'X-Content-Type-Options': '', 'Cache-Control': CACHE_CONTROL.html } }),
    });
    expect(failures(await runSmoke({ site: site.url }))).toEqual({
      'home page': [
        `Content-Security-Policy "default-src *", expected ${JSON.stringify(SECURITY_HEADERS['Content-Security-Policy']!.slice(0, 77) + '...')}`,
        `Strict-Transport-Security none, expected "${SECURITY_HEADERS['Strict-Transport-Security']}"`,
        `Cache-Control "public, max-age=3600", expected "${CACHE_CONTROL.html}"`,
      ],
      'hashed asset': [
        `X-Content-Type-Options "", expected "nosniff"`,
        `Cache-Control "no-cache", expected "${CACHE_CONTROL.hashedAsset}"`,
      ],
    });
  });

  it('accepts HSTS for subdomains (a stage with hstsIncludeSubdomains) and refuses a weaker one', async () => {
    const withHsts = (value: string) => () => {
      const reply = WORKING.home();
      return { ...reply, headers: { ...reply.headers!, 'Strict-Transport-Security': value } };
    };
    const optedIn = await fakeStage({ home: withHsts('max-age=31536000; includeSubDomains') });
    expect(failures(await runSmoke({ site: optedIn.url }))).toEqual({});
    const short = await fakeStage({ home: withHsts('max-age=300') });
    expect(failures(await runSmoke({ site: short.url }))).toEqual({
      'home page': ['Strict-Transport-Security "max-age=300", expected "max-age=31536000"'],
    });
  });

  it('fails a page whose inline script the policy does not allow, and passes it once the policy lists its hash', async () => {
    const loader = 'import("/assets/index-1.js")';
    const withLoader = (headers: Record<string, string>) => () => ({
      ...WORKING.home(),
      headers,
      body: html(
        [contact.headline, contactForm.title, contactForm.submit],
        `<link rel="stylesheet" href="${ASSET}"><script type="module">${loader}</script>`,
      ),
    });
    const blocked = await fakeStage({ home: withLoader(WORKING.home().headers!) });
    expect(failures(await runSmoke({ site: blocked.url }))['home page']).toEqual([
      `Content-Security-Policy blocks the page's inline script ${scriptHash(loader)}`,
    ]);
    const allowed = await fakeStage({ home: withLoader({ ...WORKING.home().headers!, ...securityHeadersFor([scriptHash(loader)]) }) });
    expect(failures(await runSmoke({ site: allowed.url }))['home page']).toBeUndefined();
  });

  it('fails icons and a share picture that are missing, of the wrong kind or size, or cached as something else', async () => {
    const site = await fakeStage({
      brand: (req) => {
        const reply = brandFile(req.url!);
        if (req.url === '/og-image.png')
          return {
            ...reply,
            body: BRAND.get('/apple-touch-icon.png')!,
            headers: { ...reply.headers, 'Cache-Control': CACHE_CONTROL.other },
          };
        if (req.url === '/favicon.ico') return page(200, html(['Welkom']));
        if (req.url === '/manifest.webmanifest')
          return { ...reply, body: JSON.stringify({ name: 'Site', icons: [], theme_color: '#ffffff' }) };
        return reply;
      },
    });
    const found = failures(await runSmoke({ site: site.url }));
    expect(found['share picture']).toEqual([
      `Cache-Control "${CACHE_CONTROL.other}", expected "${CACHE_CONTROL.image}"`,
      '180 × 180 pixels, expected 1200 × 630',
    ]);
    expect(found['favicon.ico']).toEqual([
      'Content-Type "text/html", expected image/x-icon or image/vnd.microsoft.icon',
      `Cache-Control "${CACHE_CONTROL.html}", expected "${CACHE_CONTROL.image}"`,
      'not an ICO file',
    ]);
    expect(found['web manifest']).toEqual(['no icons', `theme_color "#ffffff", expected the page's "${seo.themeColor}"`]);
    expect(found['touch icon']).toBeUndefined();

    const bare = await fakeStage({
      home: () =>
        page(200, html([contact.headline, contactForm.title, contactForm.submit], `<script type="module" src="${ASSET}"></script>`)),
    });
    const unnamed = failures(await runSmoke({ site: bare.url }));
    for (const name of ['share picture', 'touch icon', 'web manifest'])
      expect(unnamed[name], name).toEqual(['the home page does not name it']);
  });

  it('fails a page that is not prerendered (an empty shell) or not Dutch', async () => {
    const site = await fakeStage({
      home: () => page(200, `<!doctype html><html lang="en"><body><div id="root"></div><script src="${ASSET}"></script></body></html>`),
    });
    expect(failures(await runSmoke({ site: site.url }))['home page']).toEqual([
      'not a Dutch page (no <html lang="nl">)',
      `not prerendered: page without "${contact.headline}", "${contactForm.title}", "${contactForm.submit}"`,
    ]);
  });

  it('fails a 404 that answers 200 (the home page for every path) and S3’s 403 for a missing asset', async () => {
    const site = await fakeStage({
      notFound: WORKING.home,
      missingAsset: () => ({ status: 403, body: '<Error><Code>AccessDenied</Code></Error>' }),
    });
    const found = failures(await runSmoke({ site: site.url }));
    expect(found['unknown page']).toEqual([
      'status 200, expected 404',
      `not the 404 page: without "${notFound.headline}", "${notFound.text}"`,
    ]);
    expect(found['missing asset']).toEqual(['status 403, expected 404']);
  });

  it('fails an API that does not answer, in one line per check', async () => {
    const site = await fakeStage({ apiPost: () => 'hang', apiOther: () => 'hang' });
    const found = failures(await runSmoke({ site: site.url, timeoutMs: 500 }));
    expect(found).toEqual({
      'API through CloudFront': ['no answer: no answer within 0.5 s'],
      'API method': ['no answer: no answer within 0.5 s'],
    });
  });

  it('fails CloudFront’s own error page for an origin that is down, and a direct call the API lets through', async () => {
    const site = await fakeStage({
      apiPost: () => ({ status: 502, headers: { 'Content-Type': 'text/html' }, body: '<html><h1>502 Bad Gateway</h1></html>' }),
    });
    const api = await fakeStage({ direct: WORKING.apiPost }, { role: 'api' });
    const found = failures(await runSmoke({ site: site.url, api: api.url }));
    expect(found['API through CloudFront']).toEqual([
      'status 502, expected 400',
      'Content-Type "text/html", expected application/json',
      'body is not a JSON object: "<html><h1>502 Bad Gateway</h1></html>"',
      `no Dutch message for ${REQUIRED_FIELDS.join(', ')}`,
    ]);
    expect(found['API around CloudFront']).toEqual([
      'status 400, expected 403',
      `error ${JSON.stringify(ERROR_TEXT.invalidFields)}, expected ${JSON.stringify(ERROR_TEXT.notThroughSite)}`,
    ]);
  });

  it('reports a redirect instead of following it', async () => {
    const site = await fakeStage({ home: () => ({ status: 301, headers: { Location: 'https://www.example.nl/' } }) });
    expect(failures(await runSmoke({ site: site.url }))['home page']?.[0]).toBe('status 301 to https://www.example.nl/, expected 200');
  });

  it('stops with one line when the site does not answer at all', async () => {
    const site = await fakeStage();
    await site.close();
    await expect(runSmoke({ site: site.url })).rejects.toThrow(new Unreachable(`Cannot reach ${site.url}: connection refused.`));
  });
});

describe('the parts', () => {
  it('finds the first hashed script or stylesheet of the page', () => {
    expect(hashedAssetPath(`<link rel="stylesheet" href="/assets/a-1.css"><script src="/assets/b-2.js">`)).toBe('/assets/a-1.css');
    expect(hashedAssetPath('<img src="/favicon.svg">')).toBeUndefined();
  });

  it('escapes text as React writes it into HTML', () => {
    expect(htmlEscaped(`Vries & Zonen "B.V." <b>'t</b>`)).toBe('Vries &amp; Zonen &quot;B.V.&quot; &lt;b&gt;&#x27;t&lt;/b&gt;');
  });

  it('takes a base URL with or without a trailing slash, and refuses what is not one', () => {
    expect(baseUrl('https://d1.cloudfront.net/', 'x')).toBe('https://d1.cloudfront.net');
    expect(baseUrl('https://abc.execute-api.eu-west-1.amazonaws.com', 'x')).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
    expect(() => baseUrl('d1.cloudfront.net', 'The site URL')).toThrow(
      'The site URL "d1.cloudfront.net" is not a URL; give it as https://…',
    );
    expect(() => baseUrl('ftp://d1.cloudfront.net', 'The site URL')).toThrow('is not an http(s) URL');
  });

  it('prints a table with a mark per check, its problems under it, and a count', () => {
    const report = formatReport('https://d1.cloudfront.net', [
      { name: 'home page', request: 'GET /', problems: [] },
      { name: 'missing asset', request: 'GET /assets/x.js', problems: ['status 403, expected 404'] },
    ]);
    expect(report).toBe(
      [
        'Smoke check of https://d1.cloudfront.net',
        '',
        '  ok    home page      GET /',
        '  FAIL  missing asset  GET /assets/x.js',
        '          status 403, expected 404',
        '',
        '1 of 2 checks failed.',
      ].join('\n'),
    );
  });
});

describe('npm run smoke', () => {
  const SCRIPT = new URL('../smoke.ts', import.meta.url).pathname;
  // No AWS settings, and no local stack where the health would be read: its one line says so (smoke-health.test.ts reads it).
  const env = { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', DYNAMODB_PORT: '1' };
  const NO_HEALTH =
    '\n\nHealth not read: DynamoDB is not reachable at http://127.0.0.1:1. Start the local stack with npm start, or set AWS_REGION (and AWS_PROFILE) for AWS.\n';
  const smoke = (...args: string[]) => runScript(SCRIPT, args, { env });
  let working: FakeStage;
  let broken: FakeStage;
  beforeAll(async () => {
    working = await fakeStage({}, { closeAfterTest: false });
    broken = await fakeStage({ notFound: WORKING.home }, { closeAfterTest: false });
  });
  afterAll(async () => {
    await working?.close();
    await broken?.close();
  });

  it('exits 0 with a table when everything passes', async () => {
    const { code, stdout, stderr } = await smoke(working.url);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain(`Smoke check of ${working.url}`);
    expect(stdout).toMatch(/ {2}ok {4}home page +GET \/\n/);
    expect(stdout.endsWith(`All 11 checks passed.${NO_HEALTH}`)).toBe(true);
  });

  it('exits 1 on a failed check, naming it, without a stack trace', async () => {
    const { code, stdout } = await smoke(broken.url);
    expect(code).toBe(1);
    expect(stdout).toMatch(/ {2}FAIL {2}unknown page +GET \/smoke-check-[0-9a-f]{12}\n {10}status 200, expected 404\n/);
    expect(stdout.endsWith(`1 of 11 checks failed.${NO_HEALTH}`)).toBe(true);
    expect(stdout).not.toMatch(/\n\s+at /);
  });

  it('exits 1 with one line when the site is unreachable, and 2 with the usage when the command is wrong', async () => {
    const closed = await fakeStage();
    await closed.close();
    expect(await smoke(closed.url)).toEqual({ code: 1, stdout: '', stderr: `Cannot reach ${closed.url}: connection refused.\n` });
    const usage = 'Usage: npm run smoke -- <site-url> [--api <execute-api-url>] [--timeout <seconds>] [--stage <stage>] [--deliver]\n';
    expect(await smoke()).toEqual({ code: 2, stdout: '', stderr: `Give the site URL (the SiteUrl output).\n${usage}` });
    expect(await smoke('d1.cloudfront.net')).toEqual({
      code: 2,
      stdout: '',
      stderr: `The site URL "d1.cloudfront.net" is not a URL; give it as https://…\n${usage}`,
    });
    expect(await smoke(working.url, '--timeout', 'soon')).toMatchObject({
      code: 2,
      stderr: `--timeout soon: not a number of seconds.\n${usage}`,
    });
  });
});
