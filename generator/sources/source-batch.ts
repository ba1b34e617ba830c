/**
 * What every source hands the normaliser as it reads: upstream items of one mapping format,
 * a page, a chunk of a file or a run of JSON Lines at a time, in upstream order. No source
 * collects its whole catalog first; `fetchUpstream` maps each batch as it arrives.
 */
import type { UpstreamFormat } from '../normalise/types.js';
import type { SourceFormat } from './source-formats.js';

export interface SourceBatch {
  format: SourceFormat;
  /** The mapper the items take (`shopify_admin` items are storefront-shaped). */
  shape: UpstreamFormat;
  items: readonly unknown[];
  /** Items of this batch left out because shoppers cannot see them (the Admin API's drafts and the like). */
  hidden?: number;
}
