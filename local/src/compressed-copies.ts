/**
 * The compressed copies of a site file, as CloudFront keeps them in its cache: made once for
 * each content and kept on disk, keyed by the content's hash, so a stack started again on the
 * same build (every browser test file starts one) reads them instead of spending most of a
 * second on brotli at its highest quality. A copy that cannot be read or written is made again.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';

/** The settings are in the folder's name: a change of them never reads an old copy. */
export const CACHE_DIR = join(tmpdir(), 'site-edge-br11-gzip9');

const ENCODINGS = {
  br: (body: Buffer) => brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
  gzip: (body: Buffer) => gzipSync(body, { level: 9 }),
};

/** `hash`: the content's hash in a form that can name a file (base64url). */
export function compressedCopies(body: Buffer, hash: string): Record<keyof typeof ENCODINGS, Buffer> {
  const copy = (encoding: keyof typeof ENCODINGS) => {
    const path = join(CACHE_DIR, `${hash}.${encoding}`);
    try {
      return readFileSync(path);
    } catch {
      const compressed = ENCODINGS[encoding](body);
      keep(path, compressed);
      return compressed;
    }
  };
  return { br: copy('br'), gzip: copy('gzip') };
}

/** Written beside and renamed into place, so a stack starting beside this one never reads half a copy. */
function keep(path: string, compressed: Buffer): void {
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, compressed);
    renameSync(partial, path);
  } catch {
    // A read-only or full disk: the copy serves from memory this time.
  }
}
