/**
 * The bundle's live data as the handler sees it: the manifest and the search index's root
 * read once per isolate (its partitions as queries need them) (keyed by the bundle's build time, so a new deploy is picked up), and
 * product shards read on demand and kept in a small bounded cache.
 */
import type { AssetReader, LiveSettings } from './live-context.js';
import {
  indexFilePath,
  type LiveManifest,
  MANIFEST_PATH,
  productShardPath,
  shardOf,
  variantShardPath,
} from './live-files.js';
import { type LoadedSearchIndex, openSearchIndex } from './search-index.js';
import { openPartitionStore, SearchIndexError } from './search-partitions.js';
import type { UcpProduct } from './ucp-types.js';

/** About 16 products each: a few MB of parsed products at most, beside the index. */
const SHARDS_KEPT = 256;

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

export function loadLiveData(settings: LiveSettings, readAsset: AssetReader): Promise<LiveData> {
  const key = `${settings.siteOrigin}${settings.basePath}@${settings.generated}`;
  let data = loaded.get(key);
  if (!data) {
    data = readLiveData(readAsset);
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

async function readLiveData(readAsset: AssetReader): Promise<LiveData> {
  const manifest = await readJson<LiveManifest>(readAsset, MANIFEST_PATH);
  const index = brokenAsLiveDataError(
    openSearchIndex(await asLiveDataError(openPartitionStore((name) => readAsset(indexFilePath(name))))),
  );
  const shards = new Map<string, Promise<Record<string, unknown>>>();
  const readShard = <T>(path: string): Promise<Record<string, T>> => {
    let shard = shards.get(path);
    if (!shard) {
      if (shards.size >= SHARDS_KEPT) shards.clear();
      shard = readJson<Record<string, unknown>>(readAsset, path);
      shards.set(path, shard);
      shard.catch(() => shards.delete(path));
    }
    return shard as Promise<Record<string, T>>;
  };
  return {
    manifest,
    index,
    async readProducts(ids) {
      // A page's products sit in as many shards as it has products: read them side by side.
      const shards = await Promise.all(
        ids.map((id) => readShard<UcpProduct>(productShardPath(shardOf(id, manifest.shards)))),
      );
      const found = new Map<string, UcpProduct>();
      ids.forEach((id, index) => {
        const shard = shards[index] ?? {};
        const product = Object.hasOwn(shard, id) ? shard[id] : undefined;
        if (product) found.set(id, product);
      });
      return found;
    },
    async productOfVariant(variantId) {
      const shard = await readShard<string>(variantShardPath(shardOf(variantId, manifest.variant_shards)));
      return Object.hasOwn(shard, variantId) ? shard[variantId] : undefined;
    },
  };
}
