/**
 * The knowledge base's sections as the gate compares them with `kb/products.json`, without
 * their text: per section 8 bytes of its id's SHA-256 and 8 bytes of its link, price and
 * availability together, in typed arrays sorted by the id's digest. A map of the sections'
 * strings held about 400 bytes a product: half a gigabyte at 1,000,000 products, the
 * highest point of that build. Two different ids share a digest with a chance of about
 * n²/2⁶⁵; when any id digest repeats (a section listed twice, or that chance), the
 * sections are indexed by their real ids instead. A facts digest that differs is a
 * candidate only: the caller reads the few sections again to say what differs.
 */
import { DigestColumn, digestOf, repeatedDigests, SortedDigests } from '../validate/digests.js';
import type { KnowledgeBaseProduct } from './kb-markdown.js';

/** What a section is compared with products.json on. */
export type ComparedFacts = Pick<KnowledgeBaseProduct, 'link' | 'price' | 'availability'>;

export function comparedDigest({ link, price, availability }: ComparedFacts): bigint {
  return digestOf(JSON.stringify([link, price, availability]));
}

/** The sections by id: how many ids there are, and the digest of the facts the last section of an id states. */
export interface SectionIndex {
  readonly size: number;
  factsOf(id: string): bigint | undefined;
}

class DigestedSections implements SectionIndex {
  constructor(
    private readonly byId: SortedDigests,
    private readonly facts: BigUint64Array,
  ) {}

  get size(): number {
    return this.facts.length;
  }

  factsOf(id: string): bigint | undefined {
    const at = this.byId.find(digestOf(id));
    return at === -1 ? undefined : this.facts[this.byId.owners[at] ?? 0];
  }
}

/** By the real ids, the last section of an id winning, as a map of the sections would keep it. */
function sectionsByRealId(sections: Iterable<KnowledgeBaseProduct>): SectionIndex {
  const byId = new Map<string, bigint>();
  // The id copied out of the piece of text it was sliced from, which it would keep whole.
  for (const section of sections) byId.set(structuredClone(section.id), comparedDigest(section));
  return { size: byId.size, factsOf: (id) => byId.get(id) };
}

/** The index of the sections, walked once (twice when an id repeats). */
export function indexSections(sections: Iterable<KnowledgeBaseProduct>): SectionIndex {
  const ids = new DigestColumn();
  const facts = new DigestColumn();
  for (const section of sections) {
    ids.push(digestOf(section.id));
    facts.push(comparedDigest(section));
  }
  const digests = ids.finish();
  if (repeatedDigests(digests).size > 0) return sectionsByRealId(sections);
  return new DigestedSections(new SortedDigests(digests, Uint32Array.from(digests.keys())), facts.finish());
}

/** The compared facts of the sections whose id is among `ids`, the last of an id winning, read again. */
export function sectionFactsOf(
  sections: Iterable<KnowledgeBaseProduct>,
  ids: ReadonlySet<string>,
): Map<string, ComparedFacts> {
  const found = new Map<string, ComparedFacts>();
  for (const { id, link, price, availability } of sections)
    if (ids.has(id)) found.set(...structuredClone([id, { link, price, availability }] as const));
  return found;
}
