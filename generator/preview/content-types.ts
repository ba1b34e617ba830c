/**
 * Content-Type for files that no `_headers` rule types, by extension, the way a CDN's
 * default table does. The rules always win; this only covers what they leave out.
 */
import { extname } from 'node:path';

const UTF8 = '; charset=utf-8';

const BY_EXTENSION: Readonly<Record<string, string>> = {
  '.html': `text/html${UTF8}`,
  '.htm': `text/html${UTF8}`,
  '.css': `text/css${UTF8}`,
  '.js': `text/javascript${UTF8}`,
  '.mjs': `text/javascript${UTF8}`,
  '.json': 'application/json',
  '.jsonld': 'application/ld+json',
  '.xml': 'application/xml',
  '.rss': 'application/rss+xml',
  '.txt': `text/plain${UTF8}`,
  '.md': `text/markdown${UTF8}`,
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.pdf': 'application/pdf',
};

export function contentTypeFor(file: string): string {
  return BY_EXTENSION[extname(file).toLowerCase()] ?? 'application/octet-stream';
}
