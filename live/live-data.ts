/**
 * The bundle's live data as the handler sees it: the manifest and the search index's root
 * read once per isolate (its partitions as queries need them; keyed by the bundle's build
 * time, so a new deploy is picked up), and
 * product and variant shards read on demand, kept in a cache bounded by size, of which
 * only the entries asked for are parsed (packed-shard.ts).
 */
import { gunzipText } from './gzip-text.js';
import type { AssetFiles, AssetReader, LiveSettings } from './live-context.js';
import { indexFilePath, type LiveManifest, MANIFEST_PATH } from './live-files.js';
import { productShardPath, shardOf, variantShardPath } from './live-layout.js';
import { readPackedEntry } from './packed-shard.js';
import { type LoadedSearchIndex, openSearchIndex } from './search-index.js';
import { openPartitionStore, SearchIndexError } from './search-partitions.js';
import { createShardCache } from './shard-cache.js';
import type { UcpProduct } from './ucp-types.js';

/**
 * Characters of shard text kept per isolate: about 8 MB (shards are mostly ASCII, one
 * byte a character in V8), a few dozen product shards beside the index.
 */
const SHARD_CHARS_KEPT = 8_000_000;

export interface LiveData {
  manifest: LiveManifest;
  index: LoadedSearchIndex;
  /** The products of these ids that exist, by id (product ids only). */
  readProducts(ids: readonly string[]): Promise<Map<string, UcpProduct>>;
  /** The product id a variant id belongs to. */
  productOfVariant(variantId: string): Promise<string | undefined>;
}

/** The bundle's live data could not be read: the deployment is broken, not the request. */
export class LiveDataError extends Error {
  override readonly name = 'LiveDataError';
}

const loaded = new Map<string, Promise<LiveData>>();

export function loadLiveData(settings: LiveSettings, files: AssetFiles): Promise<LiveData> {
  const key = `${settings.siteOrigin}${settings.basePath}@${settings.generated}`;
  let data = loaded.get(key);
  if (!data) {
    data = readLiveData(files);
    // One bundle per isolate is the rule; a second key means a redeploy, so drop the old one.
    loaded.clear();
    loaded.set(key, data);
    data.catch(() => loaded.delete(key));
  }
  return data;
}

/** An index missing, cut short, corrupt or of another format is a broken deployment, like a missing one. */
async function asLiveDataError<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (!(error instanceof SearchIndexError)) throw error;
    throw new LiveDataError(`${error.message}; rebuild the bundle`);
  }
}

/** The index, its partitions' failures (found at query time) reported as a broken bundle. */
function brokenAsLiveDataError(index: LoadedSearchIndex): LoadedSearchIndex {
  return {
    products: index.products,
    productIds: (positions) => asLiveDataError(index.productIds(positions)),
    search: (query) => asLiveDataError(index.search(query)),
  };
}

async function readJson<T>(readAsset: AssetReader, path: string): Promise<T> {
  const text = await readAsset(path);
  if (text === undefined) throw new LiveDataError(`the bundle has no ${path}`);
  return JSON.parse(text) as T;
}

async function readLiveData({ readAsset, readAssetBytes }: AssetFiles): Promise<LiveData> {
  const manifest = await readJson<LiveManifest>(readAsset, MANIFEST_PATH);
  const indexFiles = {
    text: (name: string) => readAsset(indexFilePath(name)),
    bytes: (name: string) => readAssetBytes(indexFilePath(name)),
  };
  const index = brokenAsLiveDataError(openSearchIndex(await asLiveDataError(openPartitionStore(indexFiles))));
  // Product and variant shards are gzipped (live-layout.ts): kept as their text, once unpacked.
  const readShardText = async (path: string): Promise<string | undefined> => {
    const bytes = await readAssetBytes(path);
    if (bytes === undefined) return undefined;
    try {
      return await gunzipText(bytes);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new LiveDataError(`${path} cannot be unpacked (${reason}); rebuild the bundle`);
    }
  };
  const readShard = createShardCache(readShardText, SHARD_CHARS_KEPT);
  const readEntry = async (path: string, key: string): Promise<string | undefined> => {
    const text = await readShard(path);
    if (text === undefined) throw new LiveDataError(`the bundle has no ${path}`);
    try {
      return readPackedEntry(text, key)?.body;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new LiveDataError(`${path} cannot be read (${reason}); rebuild the bundle`);
    }
  };
  return {
    manifest,
    index,
    async readProducts(ids) {
      // A page's products sit in as many shards as it has products: read them side by side.
      const bodies = await Promise.all(
        ids.map((id) => readEntry(productShardPath(shardOf(id, manifest.shards)), id)),
      );
      const found = new Map<string, UcpProduct>();
      ids.forEach((id, index) => {
        const body = bodies[index];
        if (body !== undefined) found.set(id, JSON.parse(body) as UcpProduct);
      });
      return found;
    },
    productOfVariant(variantId) {
      return readEntry(variantShardPath(shardOf(variantId, manifest.variant_shards)), variantId);
    },
  };
}
