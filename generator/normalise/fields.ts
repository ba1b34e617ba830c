/**
 * Small checks shared by the adapters' mappings: what a usable slug looks like, how a
 * product URL is built on the merchant's site, which image URLs are worth keeping and
 * how upstream time stamps and tags are read.
 */
import { SLUG_RULE_TEXT } from '../../record/slug.js';
import type { MapOutcome, RejectedProduct } from './types.js';

// The slug rule has one owner (record/slug.ts), shared with content file names.
export { isUsableSlug } from '../../record/slug.js';

/** The rejection reason for a handle or slug the rule refuses, saying what was expected. */
export function describeUnusableSlug(field: 'handle' | 'slug', slug: string): string {
  return `has an unusable ${field} ${JSON.stringify(slug)} (expected ${SLUG_RULE_TEXT})`;
}

/**
 * WooCommerce returns non-Latin slugs percent-encoded ("%e6%8a%b9"), and so do some Shopify
 * stores' handles (imported ones); content files and URLs use the text.
 */
export function decodeSlug(slug: string): string {
  if (!slug.includes('%')) return slug;
  try {
    return decodeURIComponent(slug).toLowerCase();
  } catch {
    return slug;
  }
}

/** The human product page on the merchant's site: where a person reads and buys. */
export function buildProductUrl(siteUrl: string, slug: string): string {
  return `${siteUrl}/products/${encodeURIComponent(slug)}`;
}

/** Absolute http(s) URL, or undefined; protocol-relative CDN links ("//cdn…") become https. */
export function readAbsoluteUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.startsWith('//') ? `https:${value}` : value.trim();
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The `src` of an image object ({ src: "…" }), as both platforms shape them. */
export function readImageSource(image: unknown): unknown {
  return typeof image === 'object' && image !== null ? (image as { src?: unknown }).src : undefined;
}

export function readIsoTime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** Shopify's storefront gives tags as an array, its Admin API as "a, b, c". */
export function readTags(value: unknown): string[] {
  const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [];
  return list
    .filter((tag): tag is string => typeof tag === 'string')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

export function hasTag(tags: readonly string[], wanted: string): boolean {
  const needle = wanted.trim().toLowerCase();
  return tags.some((tag) => tag.toLowerCase() === needle);
}

/** A rejected product whose reason names it, e.g. 'product 42 ("Green Glow") has no variants'. */
export function describeRejection(id: string, reason: string, name?: string): RejectedProduct {
  const label = name === undefined ? `product ${id}` : `product ${id} (${JSON.stringify(name)})`;
  const full = `${label} ${reason}`;
  return name === undefined ? { id, reason: full } : { id, name, reason: full };
}

/** A mapping's failed outcome; see `describeRejection`. */
export function reject(id: string, reason: string, name?: string): MapOutcome {
  return { ok: false, rejected: describeRejection(id, reason, name) };
}

/** The first schema issue as a reason: 'has an unreadable field variants.0.price: …'. */
export function describeSchemaIssue(error: {
  issues: readonly { path: PropertyKey[]; message: string }[];
}): string {
  const issue = error.issues[0];
  if (!issue) return 'is unreadable';
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
  return `has an unreadable field ${field}: ${issue.message}`;
}

/** The id of a raw product, for naming it in a rejection even when the rest is unreadable. */
export function readRawId(raw: unknown, key = 'id'): string {
  if (typeof raw !== 'object' || raw === null) return '(not an object)';
  const id = (raw as Record<string, unknown>)[key];
  return typeof id === 'number' || typeof id === 'string' ? String(id) : `(no ${key})`;
}
