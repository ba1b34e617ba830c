/**
 * What lets a rebuild skip mapping the upstream items that did not change: each item's key
 * (its upstream id, and a digest of the item as the store sent it under one format and one
 * mapping context) and the memo that recalls the product an item of that key mapped to. Mapping is pure, so the
 * same item under the same context always maps to the same product; the build cache keeps
 * the memo (generator/cache/normalise-memo.ts) only under the same version and settings.
 * Only items that mapped are remembered: a refused item is mapped again, to say why.
 */
import { createHash } from 'node:crypto';
import type { MapContext, NormalisedProduct, UpstreamFormat } from './types.js';

/** An upstream item as the memo knows it: its upstream id, and a digest of what it holds. */
export interface ItemKey {
  id: string;
  digest: string;
}

export interface NormaliseMemo {
  /** The product the item mapped to when it last had this digest, if that is known. */
  recall(item: ItemKey): NormalisedProduct | undefined;
  remember(item: ItemKey, product: NormalisedProduct): void;
}

/**
 * The digest of each raw item: SHA-256 of the format, the mapping context and the item's
 * JSON, cut to 128 bits (base64url, 22 characters), which keeps a million of them small and
 * leaves collisions out of reach. The item's JSON keeps the store's key order: an item sent
 * with its keys in another order maps afresh, which is slower and never wrong.
 */
export function itemDigests(format: UpstreamFormat, context: MapContext): (raw: unknown) => string {
  // Every field of the context, so a field added to it later is in the digest without a thought.
  const prefix = `${format}\n${JSON.stringify(context)}\n`;
  return (raw) =>
    createHash('sha256')
      .update(prefix)
      .update(JSON.stringify(raw) ?? 'undefined')
      .digest()
      .subarray(0, 16)
      .toString('base64url');
}
