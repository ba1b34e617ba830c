/**
 * The product pages packed into shards (`page-store.ts`), answered as their static files
 * would be: the same bytes, the headers `_headers` would give the file (kept in
 * `_live/pages.json`), a strong `ETag` with `If-None-Match` → 304, `HEAD` without a body
 * and 405 for other methods, as preview and Cloudflare's asset server answer a file. A
 * path that names no page is not claimed (undefined), so each shell answers it as it
 * answers any missing file. One shard is read per page and only its entry is sliced out.
 */
import { matchesIfNoneMatch } from './if-none-match.js';
import type { AssetReader, LiveSettings } from './live-context.js';
import { PAGES_MANIFEST_PATH, pageShardPath, shardOf } from './live-layout.js';
import { readPackedEntry } from './packed-shard.js';
import type { PagesManifest } from './page-store.js';
import { createShardCache, type ShardReader } from './shard-cache.js';

/** Page shards kept per isolate, in characters: about 4 MB, a few shards of 512 pages. */
const PAGE_CHARS_KEPT = 4_000_000;
/** RFC 9110 section 15.4.5: a 304 leaves out the representation's own metadata. */
const NOT_IN_304 = new Set(['content-type', 'content-length', 'content-language', 'content-encoding']);
const ALLOWED_METHODS = 'GET, HEAD';

interface PageStore {
  manifest: PagesManifest;
  readShard: ShardReader;
}

const stores = new Map<string, Promise<PageStore | undefined>>();

/** The bundle's page store, once per isolate and bundle; undefined when its pages are files. */
function loadPageStore(settings: LiveSettings, readAsset: AssetReader): Promise<PageStore | undefined> {
  const key = `${settings.siteOrigin}${settings.basePath}@${settings.generated}`;
  let store = stores.get(key);
  if (store === undefined) {
    store = readAsset(PAGES_MANIFEST_PATH).then((text) =>
      text === undefined
        ? undefined
        : {
            manifest: JSON.parse(text) as PagesManifest,
            readShard: createShardCache(readAsset, PAGE_CHARS_KEPT),
          },
    );
    // One bundle per isolate, as loadLiveData keeps it.
    stores.clear();
    stores.set(key, store);
    store.catch(() => stores.delete(key));
  }
  return store;
}

/** The decoded page name (`PackedPage.name`) a path names in the pages' folder, or undefined. */
function pageNameOf(pathname: string, folder: string): string | undefined {
  if (!pathname.startsWith(folder) || !pathname.endsWith('.md')) return undefined;
  try {
    return decodeURIComponent(pathname.slice(folder.length, -'.md'.length));
  } catch {
    return undefined;
  }
}

function headersOf(manifest: PagesManifest): Headers {
  const headers = new Headers();
  for (const [name, value] of manifest.headers) headers.append(name, value);
  return headers;
}

function unavailable(): Response {
  return Response.json(
    { error: 'the catalog is not available' },
    { status: 503, headers: { 'cache-control': 'no-store' } },
  );
}

async function findPage(store: PageStore, name: string): Promise<{ body: string; etag: string } | undefined> {
  const path = pageShardPath(shardOf(name, store.manifest.shards));
  const text = await store.readShard(path);
  if (text === undefined) throw new TypeError(`the bundle has no ${path}`);
  const entry = readPackedEntry(text, name);
  return entry && { body: entry.body, etag: entry.meta };
}

export async function answerProductPage(
  request: Request,
  settings: LiveSettings,
  readAsset: AssetReader,
): Promise<Response | undefined> {
  const pathname = new URL(request.url).pathname;
  if (!pathname.endsWith('.md')) return undefined;
  let page: { body: string; etag: string } | undefined;
  let store: PageStore | undefined;
  try {
    store = await loadPageStore(settings, readAsset);
    const name = store && pageNameOf(pathname, store.manifest.folder);
    page = store && name !== undefined ? await findPage(store, name) : undefined;
  } catch {
    // A missing or corrupt shard is a broken deployment, not the client's mistake.
    return unavailable();
  }
  if (store === undefined || page === undefined) return undefined;
  const headers = headersOf(store.manifest);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    headers.set('allow', ALLOWED_METHODS);
    headers.set('content-length', '0');
    return new Response(null, { status: 405, headers });
  }
  headers.set('etag', page.etag);
  if (matchesIfNoneMatch(request.headers.get('if-none-match'), page.etag)) {
    for (const name of NOT_IN_304) headers.delete(name);
    return new Response(null, { status: 304, headers });
  }
  const bytes = new TextEncoder().encode(page.body);
  headers.set('content-length', String(bytes.length));
  return new Response(request.method === 'HEAD' ? null : bytes, { status: 200, headers });
}
