/**
 * The build itself: what the prerender wrote, checked as files, before any browser. These
 * are the properties the CSP, search engines and the budgets rely on.
 */
import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { refusedFieldsPage } from '@site/core/contract';
import { listSiteFiles } from '@site/core/node/site-files';
import { edgeFunctionCode } from '@site/infra/edge-functions';
import { retentionDaysFrom, spamRetentionDaysFrom, visitorLimitFrom } from '@site/core/node/deploy-config';
import { inlineScripts, scriptHash, securityHeaders, siteInlineScriptHashes } from '@site/core/node/security-headers';
import { loaderScript } from '@site/frontend/inline-loader';
import { FIRST_LOAD_JS_BUDGET_BYTES, firstLoadBytes, firstLoadOf } from '@site/frontend/first-load';
import { BRAND_FILES } from '@site/frontend/brand';
import { SITE_ORIGIN } from '@site/frontend/content/site';
import { formResults } from '@site/frontend/content/form-results';
import { privacyPage } from '@site/frontend/content/privacy';
import { asRead } from '@site/testing/as-read';

const dist = join(import.meta.dirname, '..', '..', 'frontend', 'dist');
const read = (file: string) => readFileSync(join(dist, file), 'utf8');
const assets = readdirSync(join(dist, 'assets'));
/** The loader as the build inlined it into index.html. */
const LOADER = inlineScripts(read('index.html'))[0]!;

const CSP = securityHeaders(dist)['Content-Security-Policy']!;

/** Every prerendered page: its file, its route and a headline it must carry. */
const PAGES = [
  ['index.html', 'home', 'Finance Professionals Met een streepje voor'],
  ['privacy.html', 'privacy', privacyPage.title],
  ['404.html', 'not-found', 'Oops! Page not found'],
  ['bedankt.html', 'form-sent', formResults.sent.headline],
  ['controleer-bericht.html', 'form-check', formResults.check.headline],
  ['niet-verzonden.html', 'form-failed', formResults.failed.headline],
  ['niet-verzonden/limiet.html', 'form-limited', formResults.limited.headline],
  ['niet-verzonden/druk.html', 'form-busy', formResults.busy.headline],
  ['controleer-bericht/email-message.html', 'form-check/email-message', formResults.check.refused(2)],
  ['via-andere-website.html', 'form-crossSite', formResults.crossSite.headline],
] as const;

for (const [file, route, headline] of PAGES) {
  test.describe(`dist/${file}`, () => {
    const html = read(file);

    test('is Dutch, prerendered for its route and carries its content before any script runs', () => {
      expect(html).toMatch(/^<!doctype html>\s*<html lang="nl">/);
      // In a Suspense boundary (React's <!--$--> marker), which hydrates in slices (see App.tsx);
      // a page that is a chunk of its own sits in a second one, its part's.
      const boundaries = route === 'home' || route === 'not-found' ? '<!--$-->' : '<!--$--><!--$-->';
      expect(html).toContain(`<div id="root" data-route="${route}">${boundaries}<a class="skip-link"`);
      expect(html).not.toMatch(/<!--app-(head|html|route)-->/);
      // As a reader reads it: the page keeps the last words of a headline together.
      expect(asRead(html).replace(/<!-- -->|<\/?span[^>]*>/g, '')).toContain(headline);
    });

    test('runs one inline script, the loader, allowed by its hash; no style element or style attribute for the CSP to refuse', () => {
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
      // Besides the loader, data that is never run: the JSON-LD and the typeface's family, which the loader reads.
      for (const attributes of scripts)
        expect(attributes).toMatch(
          /^ type="application\/ld\+json"$|^ type="application\/json" id="typeface"$|^ data-entry="\/assets\/index-[\w-]{8}\.js"$/,
        );
      expect(inlineScripts(html)).toEqual([LOADER]);
      expect(CSP.split('; ')).toContain(`script-src 'self' '${scriptHash(LOADER)}'`);
      expect(html).not.toMatch(/<style\b/);
      expect(html).not.toMatch(/\sstyle=/);
    });

    test('names one content-hashed entry for the loader and requests no script itself; one stylesheet', () => {
      expect(html.match(/<script data-entry="\/assets\/index-[\w-]{8}\.js">/g)).toHaveLength(1);
      expect(html).not.toMatch(/<script\b[^>]*\bsrc=/);
      expect(html).not.toContain('modulepreload');
      expect(html.match(/<link rel="stylesheet" crossorigin href="\/assets\/index-[\w-]{8}\.css">/g)).toHaveLength(1);
    });
  });
}

test.describe('the loader', () => {
  test('is the same text on every page, so one hash in the CSP covers them all, and names the one entry file', () => {
    const loaders = PAGES.map(([file]) => inlineScripts(read(file)));
    expect(loaders).toEqual(PAGES.map(() => [LOADER]));
    expect(siteInlineScriptHashes(dist)).toEqual([scriptHash(LOADER)]);
    const entries = new Set(PAGES.map(([file]) => /data-entry="\/assets\/([^"]+)"/.exec(read(file))![1]));
    expect([...entries]).toEqual(assets.filter((name) => /^index-[\w-]{8}\.js$/.test(name)));
  });

  test('is src/loader.ts as built, and its text does not depend on the build (the entry is an attribute)', async () => {
    expect(LOADER).toBe(await loaderScript());
    expect(LOADER).not.toMatch(/assets|index-/);
  });
});

test.describe('dist', () => {
  test('ships only hashed JS, CSS and the typeface’s two font files, and first-load JavaScript (the loader included) within its budget, the stamp’s solver not in it', () => {
    expect(assets.filter((name) => !/^[\w-]+-[\w-]{8}\.(js|css|woff2)$/.test(name))).toEqual([]);
    expect(assets.filter((name) => name.endsWith('.woff2')).map((name) => name.replace(/-[\w-]{8}\.woff2$/, ''))).toEqual([
      'inter-first-view',
      'inter-latin-rest',
    ]);
    const js = assets.filter((name) => name.endsWith('.js'));
    const { inline, files } = firstLoadOf(dist);
    expect(inline).toBe(LOADER);
    const firstLoad = files.map((file) => file.replace(/^assets\//, ''));
    expect(firstLoadBytes(dist)).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET_BYTES);
    // The privacy statement, the form's result pages, its send path and its proof-of-work stamp
    // (the page's side and the worker with the solver) come later, as chunks of their own.
    expect(js.filter((name) => !firstLoad.includes(name)).map((name) => name.replace(/-[\w-]{8}\.js$/, ''))).toEqual([
      'FormResult',
      'PrivacyPage',
      'send-message',
      'stamp-solving',
      'stamp-worker',
    ]);
    for (const name of firstLoad) expect(read(`assets/${name}`)).not.toContain('keyPrefix');
    // Production React and JSX, even when the build was started from a test run (NODE_ENV=test).
    for (const name of js) expect(readFileSync(join(dist, 'assets', name), 'utf8')).not.toContain('jsxDEV');
  });

  test('first-load JavaScript is one figure: size-limit, which the bench reports, counts the bytes this build test counts', () => {
    const root = join(import.meta.dirname, '..', '..');
    const [check] = JSON.parse(execFileSync(join(root, 'node_modules/.bin/size-limit'), ['--json'], { cwd: root, encoding: 'utf8' })) as {
      size: number;
      sizeLimit: number;
    }[];
    expect(check).toMatchObject({ size: firstLoadBytes(dist), sizeLimit: FIRST_LOAD_JS_BUDGET_BYTES });
  });

  test('refers to no other host from its HTML or CSS', () => {
    const texts = [...PAGES.map(([file]) => read(file)), ...assets.filter((a) => a.endsWith('.css')).map((a) => read(`assets/${a}`))];
    for (const text of texts) {
      // Only identifiers (the JSON-LD vocabulary, the SVG namespace), the site's own origin and,
      // as a link the visitor may follow, the Dutch data protection authority.
      const foreign = [...text.matchAll(/https?:\/\/[^\s"'<>)]+/g)]
        .map((m) => m[0])
        .filter((url) => !url.startsWith(SITE_ORIGIN) && url !== 'https://schema.org');
      expect(foreign.filter((url) => url !== 'https://autoriteitpersoonsgegevens.nl')).toEqual([]);
    }
    expect(read('privacy.html')).toContain('<a href="https://autoriteitpersoonsgegevens.nl">');
  });

  test('states in privacy.html the retentions the stack is configured with (cdk.json), where the deploy check reads them', () => {
    const stated = (fact: string) => [...read('privacy.html').matchAll(new RegExp(`data-${fact}="(\\d+)"`, 'g'))].map((m) => Number(m[1]));
    // Said more than once (the message, its spam assessment, the logs), and the same each time.
    expect(stated('retention-days').length).toBeGreaterThan(0);
    expect(new Set(stated('retention-days'))).toEqual(new Set([retentionDaysFrom(CDK_JSON_CONTEXT)]));
    expect(stated('spam-retention-days')).toEqual([spamRetentionDaysFrom(CDK_JSON_CONTEXT)]);
  });

  test('states in the page for a visitor over the limit the window the stack is configured with (cdk.json), where the deploy check reads it', () => {
    const found = [...read('niet-verzonden/limiet.html').matchAll(/data-visitor-window-minutes="(\d+)"/g)].map((m) => Number(m[1]));
    expect(found).toEqual([visitorLimitFrom(CDK_JSON_CONTEXT).windowMinutes]);
  });

  test('prerenders a check page for every combination of refused fields, and no other', () => {
    const names = Object.keys(CONTACT_FIELDS);
    const pages = readdirSync(join(dist, 'controleer-bericht')).map((file) => file.replace(/\.html$/, ''));
    expect(pages).toHaveLength(2 ** names.length - 1);
    for (const page of pages) expect(refusedFieldsPage(page.split('-'))).toBe(`/controleer-bericht/${page}`);
  });

  test('fits, with every page of this build in its file list, in the CloudFront Functions’ 10 KB of code', () => {
    for (const name of ['viewer-request', 'viewer-response'] as const) {
      const bytes = Buffer.byteLength(edgeFunctionCode(name, listSiteFiles(dist)));
      // About 3.5 KB with five fields' 31 check pages; each field more doubles those.
      expect(bytes, name).toBeLessThan(10 * 1024);
    }
  });

  test('has every icon, the manifest and the share picture the pages link, at the paths they link', () => {
    for (const [file] of PAGES) {
      const html = read(file);
      const linked = [
        ...[...html.matchAll(/<link rel="(?:icon|apple-touch-icon|manifest)" href="([^"]+)"/g)].map((m) => m[1]!),
        ...[...html.matchAll(/<meta (?:property|name)="(?:og|twitter):image" content="([^"]+)"/g)].map((m) => new URL(m[1]!).pathname),
      ];
      for (const path of linked) expect(existsSync(join(dist, path)), `${file} links ${path}`).toBe(true);
    }
    const home = read('index.html');
    expect(home).toContain(`<meta property="og:image" content="${SITE_ORIGIN}${BRAND_FILES.shareImage}" />`);
    expect(home).toContain('<meta name="twitter:card" content="summary_large_image" />');
    for (const path of Object.values(BRAND_FILES)) expect(existsSync(join(dist, path)), path).toBe(true);
  });

  test('has robots.txt and sitemap.xml with the site origin, and the SVG favicon', () => {
    expect(read('robots.txt')).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${SITE_ORIGIN}/sitemap.xml\n`);
    expect([...read('sitemap.xml').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([
      `${SITE_ORIGIN}/`,
      `${SITE_ORIGIN}/privacy`,
    ]);
    expect(read('favicon.svg')).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });
});
