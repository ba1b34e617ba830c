/**
 * The shape of a published product the gate reads offers from: ids, link, currency, images
 * and variants with ids. A catalog record short of it is the schema check's to report; the
 * offers' checks pass it by.
 */
import type { ProductRecord } from '../../../record/product-record.js';
import { isRecord } from '../bundle-layout.js';

/** A published product with what the offers are read from (ids, link, currency, images, variants). */
export function isRecordLike(value: unknown): value is ProductRecord {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.slug === 'string' &&
    typeof value.url === 'string' &&
    typeof value.currency === 'string' &&
    Array.isArray(value.images) &&
    Array.isArray(value.variants) &&
    value.variants.every((variant) => isRecord(variant) && typeof variant.id === 'string')
  );
}
