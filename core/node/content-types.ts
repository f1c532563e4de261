/**
 * Content-Type per file extension of the built site: one table for the local edge, which
 * serves the files, and the uploads to S3, which set it where the upload's own guess (the
 * AWS CLI's, from Python's mimetypes and whatever the Lambda image has in /etc/mime.types)
 * cannot be relied on.
 */
import { extname } from 'node:path';

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * The site's font files. Python's own mimetypes table (3.11) has no entry for them, so the
 * upload's guess would depend on the Lambda image's /etc/mime.types: their upload names the type.
 */
export const FONT_EXTENSION = '.woff2';

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path)] ?? 'application/octet-stream';
}
