/**
 * `checkFeed` validates a feed: well-formed XML, RSS 2.0 channel elements, and per item
 * the `g:` attributes Google requires in the shapes it requires
 * (https://support.google.com/merchants/answer/160589). It reads the feed item by item
 * (`feed-reading.ts`) and keeps of the items only the digests of their g:ids, to say the
 * second item of one; a repeat is confirmed against the real ids, read again, before it is
 * said. So its memory does not grow with the feed but by those digests (8 to 16 bytes an item).
 */
import { digestOf } from '../validate/digests.js';
import { serialisedValue } from '../validate/parse-once.js';
import type { BundleFiles, Problem } from '../validate/problem.js';
import { SeenDigests } from '../validate/seen-digests.js';
import { documentTexts } from '../validate/text-lines.js';
import { FEED_FILE } from './feed.js';
import {
  FEED_AVAILABILITIES,
  GOOGLE_NAMESPACE,
  MAX_DESCRIPTION_LENGTH,
  MAX_ID_LENGTH,
  MAX_TITLE_LENGTH,
} from './feed-item.js';
import { type FeedFrame, FeedTextWalk, feedOfTree, field } from './feed-reading.js';
import { checkGoogleItemRules } from './feed-rules.js';
import { isAbsoluteUrl } from './xml-text.js';

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

const FEED_PRICE = /^\d+(\.\d+)? [A-Z]{3}$/;
const DUPLICATE = 'duplicate g:id';

/** What is wrong with one item; `repeats(id)`: whether an earlier item had this g:id. */
function checkItem(item: Record<string, unknown>, index: number, repeats: (id: string) => boolean): string[] {
  const id = text(item['g:id']);
  const label = `item ${index + 1}${id === undefined ? '' : ` (g:id ${id})`}`;
  const faults: string[] = [];
  for (const name of ['g:id', 'g:title', 'g:description', 'g:link', 'g:price', 'g:availability']) {
    if ((text(item[name]) ?? '').trim() === '') faults.push(`${label}: missing ${name}`);
  }
  if (id !== undefined && id.length > MAX_ID_LENGTH)
    faults.push(`${label}: g:id longer than ${MAX_ID_LENGTH}`);
  if (id !== undefined && repeats(id)) faults.push(`${label}: ${DUPLICATE}`);
  const limits: [string, number][] = [
    ['g:title', MAX_TITLE_LENGTH],
    ['g:description', MAX_DESCRIPTION_LENGTH],
  ];
  for (const [name, max] of limits) {
    if (Array.from(text(item[name]) ?? '').length > max) faults.push(`${label}: ${name} longer than ${max}`);
  }
  for (const name of ['g:link', 'g:image_link']) {
    const url = text(item[name]);
    if (url !== undefined && !isAbsoluteUrl(url)) faults.push(`${label}: ${name} is not an absolute URL`);
  }
  const additional = item['g:additional_image_link'];
  for (const url of Array.isArray(additional) ? additional : []) {
    if (typeof url !== 'string' || !isAbsoluteUrl(url))
      faults.push(`${label}: g:additional_image_link is not an absolute URL`);
  }
  const price = text(item['g:price']);
  if (price !== undefined && !FEED_PRICE.test(price))
    faults.push(`${label}: g:price is not "12.00 USD" form`);
  const availability = text(item['g:availability']);
  if (availability !== undefined && !FEED_AVAILABILITIES.some((value) => value === availability)) {
    faults.push(`${label}: g:availability "${availability}" is not one of ${FEED_AVAILABILITIES.join(', ')}`);
  }
  if (
    (availability === 'preorder' || availability === 'backorder') &&
    item['g:availability_date'] === undefined
  ) {
    faults.push(`${label}: g:availability ${availability} requires g:availability_date`);
  }
  for (const fault of checkGoogleItemRules(item)) faults.push(`${label}: ${fault}`);
  return faults;
}

/** A fault said of an item, and the item it is said of (to take back a repeat its g:id's digest only suggested). */
type ItemFault = { index: number; message: string };

/** The g:ids of items whose digest was met before, candidates to be said repeats. */
type Suspects = { items: Set<number>; digests: Set<bigint> };

/** Each item's faults, in order; a g:id whose digest was met before is said a repeat, for `confirmRepeats`. */
function checkItems(items: Iterable<Record<string, unknown>>): { faults: ItemFault[]; suspects: Suspects } {
  const seen = new SeenDigests();
  const faults: ItemFault[] = [];
  const suspects: Suspects = { items: new Set(), digests: new Set() };
  let index = 0;
  for (const item of items) {
    const repeats = (id: string) => {
      const digest = digestOf(id);
      if (!seen.add(digest)) return false;
      suspects.items.add(index);
      suspects.digests.add(digest);
      return true;
    };
    for (const message of checkItem(item, index, repeats)) faults.push({ index, message });
    index += 1;
  }
  return { faults, suspects };
}

/**
 * The faults with each repeat no earlier g:id equals as text taken back: the items are read
 * again (`items`) only when some digest was met twice, and only the ids of those digests kept.
 */
function confirmRepeats(
  faults: readonly ItemFault[],
  suspects: Suspects,
  items: () => Iterable<Record<string, unknown>>,
): ItemFault[] {
  if (suspects.items.size === 0) return [...faults];
  const refuted = new Set<number>();
  const idsOf = new Map<bigint, Set<string>>();
  let index = 0;
  for (const item of items()) {
    const id = text(item['g:id']);
    const digest = id === undefined ? 0n : digestOf(id);
    if (id !== undefined && suspects.digests.has(digest)) {
      const ids = idsOf.get(digest) ?? new Set<string>();
      if (suspects.items.has(index) && !ids.has(id)) refuted.add(index);
      idsOf.set(digest, ids.add(id));
    }
    index += 1;
  }
  return faults.filter(({ index, message }) => !(refuted.has(index) && message.endsWith(`: ${DUPLICATE}`)));
}

function checkFrame({ rss, channel }: FeedFrame, problem: (message: string) => Problem): Problem[] {
  const problems: Problem[] = [];
  if (field(rss, '@_version') !== '2.0') problems.push(problem('the root is not <rss version="2.0">'));
  if (field(rss, '@_xmlns:g') !== GOOGLE_NAMESPACE) {
    problems.push(problem(`the g: prefix is not bound to ${GOOGLE_NAMESPACE}`));
  }
  for (const name of ['title', 'link', 'description']) {
    if ((text(channel[name]) ?? '').trim() === '') problems.push(problem(`channel has no ${name}`));
  }
  return problems;
}

export function checkFeed(files: BundleFiles): Problem[] {
  if (!files.has(FEED_FILE)) return [{ path: FEED_FILE, rule: 'missing', message: 'the feed is missing' }];
  const problem = (message: string): Problem => ({ path: FEED_FILE, rule: 'feed', message });
  const seed = serialisedValue(files, FEED_FILE);
  if (seed !== undefined) {
    const { frame, items } = feedOfTree(seed.value);
    const { faults, suspects } = checkItems(items);
    const confirmed = confirmRepeats(faults, suspects, () => items);
    return [...checkFrame(frame, problem), ...confirmed.map(({ message }) => problem(message))];
  }
  const texts = (): Iterable<string> => documentTexts(files, FEED_FILE) ?? [];
  const walk = new FeedTextWalk(texts());
  const { faults, suspects } = checkItems(walk.items());
  const reading = walk.finish();
  if (!reading.ok) {
    const { fault } = reading;
    const message =
      fault.kind === 'malformed'
        ? `not well-formed XML (line ${fault.line}): ${fault.message}`
        : 'contains characters XML 1.0 does not allow';
    return [{ path: FEED_FILE, rule: 'xml', message }];
  }
  const confirmed = confirmRepeats(faults, suspects, () => new FeedTextWalk(texts()).items());
  return [...checkFrame(reading.frame, problem), ...confirmed.map(({ message }) => problem(message))];
}
