import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CACHE_DIR, compressedCopies } from '../src/compressed-copies';

/** A file no earlier run has compressed. */
function newFile() {
  const body = Buffer.from(`const build = '${randomBytes(16).toString('hex')}';\n`.repeat(200));
  return { body, hash: createHash('sha1').update(body).digest('base64url') };
}

describe('the compressed copies of a site file', () => {
  it('decompress to the file, in brotli and gzip', () => {
    const { body, hash } = newFile();
    const { br, gzip } = compressedCopies(body, hash);
    expect(br.length).toBeLessThan(body.length / 10);
    expect(brotliDecompressSync(br).equals(body)).toBe(true);
    expect(gunzipSync(gzip).equals(body)).toBe(true);
  });

  it('are made once for a content: a stack started again reads them', () => {
    const { body, hash } = newFile();
    const first = compressedCopies(body, hash);
    const kept = statSync(join(CACHE_DIR, `${hash}.br`)).mtimeMs;
    const again = compressedCopies(body, hash);
    expect(again.br.equals(first.br)).toBe(true);
    expect(statSync(join(CACHE_DIR, `${hash}.br`)).mtimeMs).toBe(kept);
    expect(readFileSync(join(CACHE_DIR, `${hash}.gzip`)).equals(first.gzip)).toBe(true);
  });

  it('are what the cache keeps for the content’s hash, once kept', () => {
    const { body, hash } = newFile();
    mkdirSync(CACHE_DIR, { recursive: true });
    writeFileSync(join(CACHE_DIR, `${hash}.br`), 'kept earlier');
    expect(compressedCopies(body, hash).br.toString()).toBe('kept earlier');
  });
});
