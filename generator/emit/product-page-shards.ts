/**
 * Where the product pages are stored. With the live surface off they are a file each
 * (`emitProductMarkdown`), which any static host serves. With it on they are packed into
 * `_live/pages/<n>.pack` (`live/page-store.ts`), a few thousand files at a million products
 * instead of a million, and the live handler answers `/kb/products/<slug>.md` from them
 * (`live/page-route.ts`) with the bytes the file would have held, its strong entity tag
 * and the headers `_headers` would have given it. Each page is keyed by its name
 * (`productPageName`: its slug unless that is too long for a file name), the part of its
 * URL the handler reads, and its shard is a hash of that name, so a changed product
 * rewrites one shard. `productPages` gives the gate every page
 * back, one at a time, from either storage.
 */
import { PAGES_MANIFEST_PATH, pageShardPath, shardOf } from '../../live/live-layout.js';
import { readPackedEntries } from '../../live/packed-shard.js';
import { buildPagesManifest, type PagesManifest, packPageShard } from '../../live/page-store.js';
import type { Artifact } from '../artifact.js';
import { bytesArtifact } from '../compact-artifact.js';
import type { BuildPlan } from '../plan.js';
import { computeEtag } from '../preview/conditional.js';
import { productAt } from '../product-store/planned-products.js';
import { keyColumnOf } from '../product-store/product-keys.js';
import { isRecord, readJson } from '../validate/bundle-layout.js';
import type { BundleFiles, Problem } from '../validate/problem.js';
import { shardKey } from './fragments.js';
import { documentHeaders } from './hosting.js';
import {
  emitProductMarkdown,
  isProductMarkdownFile,
  PRODUCT_MARKDOWN_MEDIA_TYPE,
  productPageRenderer,
} from './product-markdown.js';
import {
  PRODUCT_MARKDOWN_DIR,
  productMarkdownFile,
  productPageFile,
  productPageName,
} from './sitemap-pages.js';

/** True when the bundle's product pages are packed (the live surface is on). */
export function packsProductPages(plan: BuildPlan): boolean {
  return plan.config.live.enabled;
}

/**
 * The product pages, a file each or packed in shards. A shard is packed only when the
 * bundle's writer asks for the next artifact, so it is written and let go before the next
 * one is made: returned together, the shards were every page of the catalog in memory at
 * once (gigabytes at 1,000,000 products).
 */
export function* emitProductPages(plan: BuildPlan): Generator<Artifact> {
  if (!packsProductPages(plan)) {
    yield* emitProductMarkdown(plan);
    return;
  }
  // Copied from the last build's fragments when the product did not change.
  const render = productPageRenderer(plan);
  const count = plan.shards.pages;
  // A shard whose products all kept their digests is copied whole; the count is in the
  // kind, so shards cut another way are never mistaken for these.
  const shardKind = `${render.kind}/shards-${count}`;
  // Each shard's products by their index: a shard's products are read when it is packed,
  // so one shard's are held at a time, not the catalog's.
  const buckets = Array.from({ length: count }, (): number[] => []);
  // By slug alone: no product is read to sort them into shards.
  const column = keyColumnOf(plan.products);
  for (let index = 0; index < plan.products.length; index += 1)
    buckets[shardOf(productPageName(column.slug(index)), count)]?.push(index);
  yield {
    path: PAGES_MANIFEST_PATH,
    mediaType: 'application/json',
    body: buildPagesManifest({
      generated: plan.generated,
      folder: PRODUCT_MARKDOWN_DIR,
      shards: count,
      // Every page has the same headers (one folder rule when they are files): any path speaks for all.
      headers: documentHeaders(plan, {
        path: productMarkdownFile('page'),
        mediaType: PRODUCT_MARKDOWN_MEDIA_TYPE,
      }),
    }),
  };
  for (const [shard, indexes] of buckets.entries()) {
    yield bytesArtifact(
      { path: pageShardPath(shard), mediaType: 'text/plain; charset=utf-8' },
      // The shard's products are read only when it is packed again.
      plan.fragments.whole(shardKind, shardKey(shard), plan.products, indexes, () =>
        packPageShard(
          indexes.map((at) => {
            const product = productAt(plan.products, at, 'emitProductPages');
            const bytes = render(product);
            return {
              name: productPageName(product.record.slug),
              body: bytes.toString('utf8'),
              etag: computeEtag(bytes),
            };
          }),
        ),
      ),
    );
  }
}

function isPagesManifest(value: unknown): value is PagesManifest {
  return (
    isRecord(value) &&
    typeof value.folder === 'string' &&
    Number.isSafeInteger(value.shards) &&
    Array.isArray(value.headers)
  );
}

/**
 * Every product page of a bundle as [file path, body], one at a time, from its files or
 * its shards (one shard's text held at a time); what is wrong with the shards goes to
 * `report`. Only the paths of the bundle are looked at to find the page files: decoding
 * every file of it to test its path was a sixth of a cold build's gate at 10,000 products.
 */
export function* productPages(
  files: BundleFiles,
  report: (problem: Problem) => void,
): Generator<[path: string, body: string]> {
  for (const path of files.keys()) {
    if (!isProductMarkdownFile(path)) continue;
    const body = files.get(path);
    if (body !== undefined) yield [path, body];
  }
  if (!files.has(PAGES_MANIFEST_PATH)) return;
  const manifest = readJson(files, PAGES_MANIFEST_PATH);
  const problem = (path: string, message: string) => report({ path, rule: 'markdown', message });
  if (!isPagesManifest(manifest)) {
    problem(PAGES_MANIFEST_PATH, 'not a pages manifest (folder, shards, headers)');
    return;
  }
  for (let shard = 0; shard < manifest.shards; shard += 1) {
    const path = pageShardPath(shard);
    const text = files.get(path);
    if (text === undefined) {
      problem(path, 'the page shard is missing');
      continue;
    }
    let entries: ReturnType<typeof readPackedEntries>;
    try {
      entries = readPackedEntries(text);
    } catch (error) {
      problem(path, error instanceof Error ? error.message : String(error));
      continue;
    }
    for (const { key, body, meta } of entries) {
      if (shardOf(key, manifest.shards) !== shard) problem(path, `${key} is in the wrong shard`);
      if (meta !== computeEtag(Buffer.from(body, 'utf8')))
        problem(path, `${key}'s entity tag is not its body's`);
      yield [productPageFile(key), body];
    }
  }
}

/** Every product page of a bundle by its file path, from its files or its shards, and what is wrong with the shards. */
export function readProductPages(files: BundleFiles): { pages: Map<string, string>; problems: Problem[] } {
  const problems: Problem[] = [];
  const pages = new Map(productPages(files, (problem) => problems.push(problem)));
  return { pages, problems };
}
