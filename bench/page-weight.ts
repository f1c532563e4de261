/**
 * Page weight of the first view, from what the browser actually fetched (Lighthouse's
 * network requests): every script counts, whether it was the entry, a modulepreload or a
 * dynamic import fetched on load, and so does the inline loader in the HTML. JavaScript is also measured gzip- and brotli-compressed
 * by asking the serving edge for each encoding, so the figures are CloudFront's bytes and
 * no compression setting is restated here.
 */
import { get } from 'node:http';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { inlineScripts } from '@site/core/node/security-headers';
import type { NetworkRequest } from './lighthouse';

export type ResourceKind = 'js' | 'css' | 'font' | 'image' | 'html' | 'other';

export interface ScriptSize {
  path: string;
  raw: number;
  gzip: number;
  br: number;
}

export interface PageWeight {
  /** Bytes on the wire per kind, headers included, as Chrome fetched them (it accepts br). */
  transferred: Record<ResourceKind, number>;
  totalTransferred: number;
  requests: number;
  scripts: ScriptSize[];
  js: { raw: number; gzip: number; br: number };
  /** Requests to any origin but the page's own: the design allows none. */
  thirdParty: string[];
  /** Scripts the HTML names (entry + modulepreload) that the browser did not fetch, or the reverse. */
  notes: string[];
}

const KIND_BY_RESOURCE_TYPE: Record<string, ResourceKind> = {
  Script: 'js',
  Stylesheet: 'css',
  Font: 'font',
  Image: 'image',
  Document: 'html',
};

export function kindOf(request: NetworkRequest): ResourceKind {
  const byType = request.resourceType ? KIND_BY_RESOURCE_TYPE[request.resourceType] : undefined;
  if (byType) return byType;
  // modulepreload fetches are reported as "Other" by some Chromium versions: go by MIME type.
  if (/javascript/.test(request.mimeType)) return 'js';
  if (request.mimeType === 'text/css') return 'css';
  if (request.mimeType.startsWith('font/')) return 'font';
  if (request.mimeType.startsWith('image/')) return 'image';
  return 'other';
}

/** Body bytes the server sends for `url` when the client accepts `encoding`. */
export function servedBytes(url: string, encoding: 'gzip' | 'br' | 'identity'): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`${url} answered ${res.statusCode}`));
        return;
      }
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve(bytes));
      res.on('error', reject);
    }).on('error', reject);
  });
}

export async function scriptSizes(origin: string, paths: readonly string[]): Promise<{ scripts: ScriptSize[]; js: PageWeight['js'] }> {
  const scripts = await Promise.all(
    paths.map(async (path) => {
      const url = new URL(path, origin).href;
      const [raw, gzip, br] = await Promise.all([servedBytes(url, 'identity'), servedBytes(url, 'gzip'), servedBytes(url, 'br')]);
      return { path, raw, gzip, br };
    }),
  );
  const sum = (key: 'raw' | 'gzip' | 'br') => scripts.reduce((total, script) => total + script[key], 0);
  return { scripts, js: { raw: sum('raw'), gzip: sum('gzip'), br: sum('br') } };
}

/** The scripts a built index.html names: script sources, modulepreloads and the entry its inline loader imports (data-entry). */
export function scriptsNamedIn(html: string): string[] {
  const paths = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*\b(?:src|data-entry)\s*=\s*["']([^"']+)["'][^>]*>/gi)) paths.add(match[1]!);
  for (const match of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = match[0];
    const href = /\bhref\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if (href && /\brel\s*=\s*["']?modulepreload\b/i.test(tag)) paths.add(href);
  }
  return [...paths].map((path) => new URL(path, 'http://x/').pathname);
}

export async function measurePageWeight(requests: readonly NetworkRequest[], origin: string, indexHtml: string): Promise<PageWeight> {
  const transferred: Record<ResourceKind, number> = { js: 0, css: 0, font: 0, image: 0, html: 0, other: 0 };
  const thirdParty: string[] = [];
  const scriptPaths: string[] = [];
  for (const request of requests) {
    if (!/^https?:/.test(request.url)) continue; // data: URLs travel inside another response
    const url = new URL(request.url);
    if (url.origin !== origin) thirdParty.push(request.url);
    const kind = kindOf(request);
    transferred[kind] += request.transferSize;
    if (kind === 'js' && url.origin === origin && request.statusCode === 200) scriptPaths.push(url.pathname);
  }
  const fetched = await scriptSizes(origin, [...new Set(scriptPaths)]);
  // The loader travels inside the HTML; counted on its own, compressed as the edge compresses.
  const inline = inlineScripts(indexHtml).map((text, i) => ({
    path: `inline script ${i + 1} in index.html`,
    raw: Buffer.byteLength(text),
    gzip: gzipSync(text, { level: 9 }).length,
    br: brotliCompressSync(text, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }));
  const scripts = [...inline, ...fetched.scripts];
  const sum = (key: 'raw' | 'gzip' | 'br') => scripts.reduce((total, script) => total + script[key], 0);
  const js = { raw: sum('raw'), gzip: sum('gzip'), br: sum('br') };

  const notes: string[] = [];
  const named = scriptsNamedIn(indexHtml);
  const notFetched = named.filter((path) => !scriptPaths.includes(path));
  const notNamed = scriptPaths.filter((path) => !named.includes(path));
  if (notFetched.length) notes.push(`named in index.html but not fetched on first view: ${notFetched.join(', ')}`);
  if (notNamed.length) notes.push(`fetched on first view but not named in index.html (dynamic imports): ${notNamed.join(', ')}`);

  return {
    transferred,
    totalTransferred: Object.values(transferred).reduce((a, b) => a + b, 0),
    requests: requests.length,
    scripts,
    js,
    thirdParty,
    notes,
  };
}
