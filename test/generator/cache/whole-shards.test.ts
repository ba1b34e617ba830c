import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedFragments } from '../../../generator/cache/cached-fragments.js';
import { openFragmentStore } from '../../../generator/cache/fragment-store.js';
import { digestProduct } from '../../../generator/cache/product-digest.js';
import { shardKey } from '../../../generator/emit/fragments.js';
import type { PlannedProduct } from '../../../generator/plan.js';
import { makeSamplePlan } from '../../helpers/sample-plan.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'whole-shards-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const KIND = 'live-products/shards-2';

/** Packs a shard the way a test can see: which products went in, and how often it was packed. */
function packer() {
  const packed: string[][] = [];
  return {
    packed,
    pack: (members: readonly PlannedProduct[]) => () => {
      const slugs = members.map((member) => member.record.slug);
      packed.push(slugs);
      return slugs.join('|');
    },
  };
}

function members(): PlannedProduct[] {
  const products = makeSamplePlan().products;
  if (products.length < 2) throw new Error('the sample has two products at least');
  return [...products].slice(0, 2);
}

/** One build's use of the store: each shard asked for once, and the store closed as a published build does. */
function shardRun(shards: readonly (readonly PlannedProduct[])[], validate = true) {
  const store = openFragmentStore(dir, 'settings');
  const fragments = cachedFragments(store);
  const { packed, pack } = packer();
  const bytes = shards.map((shard, index) =>
    fragments
      .whole(
        KIND,
        shardKey(index),
        shard,
        shard.map((_, at) => at),
        pack(shard),
      )
      .toString('utf8'),
  );
  const validated = fragments.validatedProducts(shards.flat());
  if (validate) store.markValidated();
  store.close();
  return { bytes, packed, validated };
}

describe('a packed shard kept whole in the fragment file', () => {
  it('when the same products at the same digests go into it again then it is copied, not packed', () => {
    const shard = members();
    const first = shardRun([shard]);
    const again = shardRun([members()]);
    expect(first.packed).toHaveLength(1);
    expect(again.packed).toEqual([]);
    expect(again.bytes).toEqual(first.bytes);
    expect([...again.validated].sort()).toEqual(shard.map((product) => product.record.slug).sort());
  });

  it('when one of its products changed, or it holds another product, then it is packed again', () => {
    const [a, b] = members();
    if (a === undefined || b === undefined) throw new Error('two products');
    shardRun([[a], [b]]);
    const changedB: PlannedProduct = { ...b, record: { ...b.record, price: '12345.00' } };
    const rebuilt = shardRun([[a], [changedB]]);
    expect(rebuilt.packed).toEqual([[b.record.slug]]);
    const moved = shardRun([[a, changedB], []]);
    expect(moved.packed).toEqual([[a.record.slug, b.record.slug], []]);
  });

  it('when the fragment file was started empty then no product counts as checked', () => {
    const first = shardRun([members()]);
    expect(first.packed).toHaveLength(1);
    expect(first.validated.size).toBe(0);
    expect([...first.validated]).toEqual([]);
  });

  it('when it was copied from a row no gate passed then its products are not counted as checked', () => {
    const shard = members();
    shardRun([shard], false);
    const again = shardRun([members()]);
    expect(again.packed).toEqual([]);
    expect(again.validated.size).toBe(0);
  });

  it('when the last build keyed it by its members hashed one line at a time then it is still copied', () => {
    const shard = members();
    // The key as builds before the one-string hash wrote it: one update per member's line.
    const hash = createHash('sha256');
    for (const member of shard) hash.update(`${member.record.slug}\u0000${digestProduct(member)}\n`);
    const store = openFragmentStore(dir, 'settings');
    store.put(KIND, shardKey(0), hash.digest('hex'), Buffer.from('kept'));
    store.close();
    const again = shardRun([members()]);
    expect(again.packed).toEqual([]);
    expect(again.bytes).toEqual(['kept']);
  });
});
