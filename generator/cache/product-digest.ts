/**
 * The two keys of the build cache: a product's digest (SHA-256 of a canonical JSON of
 * everything its documents are rendered from) and the build's settings digest (the
 * resolved config fields that change documents, the package version and the cache
 * format). Canonical JSON sorts object keys, so the digest does not depend on the order
 * in which a source or the merge happened to set them.
 */
import { createHash } from 'node:crypto';
import type { ResolvedConfig } from '../config.js';
import type { PlannedProduct } from '../plan.js';

/** JSON with every object's keys sorted: the same data always gives the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const entries = Object.entries(item as Record<string, unknown>);
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The product's record and the planned fields the per-product documents read (source id,
 * image, Markdown description). Its times are left out: `updatedAt` is the store's own
 * clock and `changedAt` is what this digest decides, so neither may move it.
 *
 * Plain JSON, keys in the order the product was built: the renderers write them in that
 * order too, so equal text means equal documents (a canonical form would call two products
 * equal whose documents differ in key order), and it costs a quarter of sorting every
 * object's keys (3.7 s of a 100,000-product rebuild). The same code builds the same order,
 * so an unchanged product keeps its digest from build to build.
 */
export function digestProduct(product: PlannedProduct): string {
  const { updatedAt: _updatedAt, changedAt: _changedAt, ...rendered } = product;
  return sha256(JSON.stringify(rendered));
}

/**
 * Digests already computed, by product object: the build cache dates each product by its
 * digest, and every fragment of the product is then looked up by it, so it is computed
 * once per product, not once per fragment. A product read back from disk
 * (product-store/stored-products.ts) brings its digest with it.
 */
const knownDigests = new WeakMap<PlannedProduct, string>();

/** Remembers `digest` as `product`'s (it must be `digestProduct(product)`). */
export function rememberDigest(product: PlannedProduct, digest: string): void {
  knownDigests.set(product, digest);
}

/** `digestProduct(product)`, computed only the first time it is asked for this object. */
export function digestOfProduct(product: PlannedProduct): string {
  const known = knownDigests.get(product);
  if (known !== undefined) return known;
  const digest = digestProduct(product);
  knownDigests.set(product, digest);
  return digest;
}

/** A product record as the last bundle's catalog published it, to compare with `digestRecord`. */
export function digestRecord(record: unknown): string {
  return sha256(canonicalJson(record));
}

/**
 * The config fields that change documents, with the version and cache format. Left out:
 * `upstream` (how the store is read: what it yields is in each product's digest),
 * `build` (the shrink guard and host checks, which change no byte), `issuer` (read only by
 * agent-auth) and `config_dir` (where the config file happens to be).
 */
export function digestSettings(config: ResolvedConfig, version: string, format: number): string {
  const { upstream: _upstream, build: _build, issuer: _issuer, config_dir: _dir, ...documents } = config;
  return sha256(canonicalJson({ documents, version, format }));
}
