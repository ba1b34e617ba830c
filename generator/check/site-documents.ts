/**
 * The documents a live site must serve at fixed paths (CONTRACT.md, "Public URLs"),
 * the bundle file each is published from, and the media type each must be served
 * with. The catalog, health and knowledge-base paths depend on the site and are found
 * while reading it. Media types are compared by type and subtype, plus the `profile`
 * parameter where the format requires one (RFC 9727 §5 for the API catalog).
 */
import { AI_CATALOG_FILE, AI_CATALOG_MEDIA_TYPE } from '../emit/ai-catalog.js';
import { SERVER_CARD_MEDIA_TYPE } from '../emit/mcp-server-card.js';
import { API_CATALOG_MEDIA_TYPE, WELL_KNOWN_DOCUMENTS } from '../emit/well-known.js';

export interface SiteDocument {
  /** Path on the site, appended to the site URL. */
  urlPath: string;
  /** Bundle-relative file it is published from. */
  file: string;
}

export const SITE_DOCUMENTS: readonly SiteDocument[] = [
  { urlPath: '/api/openapi.json', file: 'api/openapi.json' },
  { urlPath: '/api/', file: 'api/index.html' },
  { urlPath: '/kb/products.json', file: 'kb/products.json' },
  { urlPath: '/feed.xml', file: 'feed.xml' },
  { urlPath: '/sitemap.xml', file: 'sitemap.xml' },
  { urlPath: '/llms.txt', file: 'llms.txt' },
  { urlPath: '/llms-full.txt', file: 'llms-full.txt' },
  { urlPath: '/robots.txt', file: 'robots.txt' },
  { urlPath: '/.well-known/oauth-protected-resource', file: '.well-known/oauth-protected-resource.json' },
  { urlPath: '/.well-known/oauth-authorization-server', file: '.well-known/oauth-authorization-server.json' },
  { urlPath: '/.well-known/openid-configuration', file: '.well-known/openid-configuration.json' },
  { urlPath: '/.well-known/api-catalog', file: '.well-known/api-catalog.json' },
  { urlPath: '/.well-known/agent.json', file: '.well-known/agent.json' },
  { urlPath: '/.well-known/agent-card.json', file: '.well-known/agent-card.json' },
  { urlPath: '/.well-known/tdmrep.json', file: '.well-known/tdmrep.json' },
  { urlPath: '/.well-known/ai-catalog.json', file: '.well-known/ai-catalog.json' },
  { urlPath: '/.well-known/agent-skills/index.json', file: '.well-known/agent-skills/index.json' },
  { urlPath: '/.well-known/mcp/server-card.json', file: '.well-known/mcp/server-card.json' },
  { urlPath: '/auth.md', file: 'auth.md' },
  { urlPath: '/api/index.md', file: 'api/index.md' },
];

/** What a file's Content-Type must be: one or more `type/subtype` choices, or one with a profile. */
export function expectedMediaType(file: string): string {
  if (file === WELL_KNOWN_DOCUMENTS.apiCatalog.path) return API_CATALOG_MEDIA_TYPE;
  if (file === AI_CATALOG_FILE) return AI_CATALOG_MEDIA_TYPE;
  if (file.endsWith('mcp/server-card.json') && !file.startsWith('.well-known/'))
    return SERVER_CARD_MEDIA_TYPE;
  if (file === 'feed.xml') return 'application/rss+xml or application/xml';
  if (file.endsWith('.json')) return 'application/json';
  if (file.endsWith('.html')) return 'text/html';
  if (file.endsWith('.xml')) return 'application/xml or text/xml';
  if (file.endsWith('.md')) return 'text/markdown';
  if (file.endsWith('.txt')) return 'text/plain';
  if (file.endsWith('.gz')) return 'application/gzip';
  if (file.endsWith('.jsonl')) return 'application/x-ndjson';
  return 'application/octet-stream';
}

function essence(mediaType: string): string {
  return (mediaType.split(';')[0] ?? '').trim().toLowerCase();
}

function profileOf(mediaType: string): string | undefined {
  const match = /;\s*profile\s*=\s*"?([^";]+)"?/i.exec(mediaType);
  return match?.[1];
}

export function mediaTypeMatches(actual: string, expected: string): boolean {
  const choices = expected.split(' or ');
  return choices.some((choice) => {
    if (essence(actual) !== essence(choice)) return false;
    const profile = profileOf(choice);
    return profile === undefined || profileOf(actual) === profile;
  });
}
