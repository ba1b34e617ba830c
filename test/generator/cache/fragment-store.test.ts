import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFragmentStore } from '../../../generator/cache/fragment-store.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fragment-store-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const slugs = Array.from({ length: 300 }, (_, index) => `product-${String(index).padStart(4, '0')}`);

function fill(): void {
  const store = openFragmentStore(dir, 'settings');
  for (const slug of slugs) store.put('page', slug, `digest-${slug}`, Buffer.from(`body of ${slug}`));
  store.markValidated();
  store.close();
}

describe('the fragment file', () => {
  it('when a kind keeps touched rows only then a pruning close deletes its rows this build did not use, and no others', () => {
    fill();
    const first = openFragmentStore(dir, 'settings');
    for (const key of ['run-a', 'run-b', 'run-c']) first.put('runs', key, key, Buffer.from(key));
    // A kind a build does not ask for at all is dropped when pruning: this one is asked for.
    first.get('page', 'product-0000', 'digest-product-0000');
    first.close({ removedSlugs: [] });
    const second = openFragmentStore(dir, 'settings');
    second.keepTouchedOnly('runs');
    expect(second.get('runs', 'run-a', 'run-a')?.bytes.toString()).toBe('run-a');
    second.put('runs', 'run-d', 'run-d', Buffer.from('run-d'));
    second.get('page', 'product-0000', 'digest-product-0000');
    second.close({ removedSlugs: [] });
    const third = openFragmentStore(dir, 'settings');
    try {
      const runs = ['run-a', 'run-b', 'run-c', 'run-d'].filter(
        (key) => third.get('runs', key, key) !== undefined,
      );
      expect(runs).toEqual(['run-a', 'run-d']);
      // Another kind's rows stay, used or not.
      expect(third.get('page', 'product-0299', 'digest-product-0299')?.bytes.toString()).toBe(
        'body of product-0299',
      );
    } finally {
      third.close();
    }
  });

  it('when rows are asked for in slug order, in a shuffled order or far apart then each is found', () => {
    fill();
    const store = openFragmentStore(dir, 'settings');
    try {
      // A fixed shuffle (the page shards ask by hash, not by slug).
      const shuffled = slugs
        .map((slug, index) => ({ slug, key: (index * 7919) % slugs.length }))
        .sort((a, b) => a.key - b.key);
      for (const order of [
        slugs,
        shuffled.map((item) => item.slug),
        slugs.filter((_, index) => index % 97 === 0),
      ]) {
        for (const slug of order) {
          expect(store.get('page', slug, `digest-${slug}`)?.bytes.toString()).toBe(`body of ${slug}`);
        }
      }
    } finally {
      store.close();
    }
  });

  it('when rows are asked for in slug order then one scan answers them, and out of order each is one query', () => {
    fill();
    const store = openFragmentStore(dir, 'settings');
    try {
      for (const slug of slugs) store.get('page', slug, `digest-${slug}`);
      // A few single queries first, to see that the lookups run in order; then one scan.
      expect(store.reads.scans).toBe(1);
      expect(store.reads.points).toBeLessThan(slugs.length / 10);
      const before = { ...store.reads };
      const backwards = [...slugs].reverse();
      for (const slug of backwards) store.get('page', slug, `digest-${slug}`);
      expect(store.reads.scans).toBe(before.scans);
      // The first of them is the row the scan stands on.
      expect(store.reads.points - before.points).toBe(slugs.length - 1);
    } finally {
      store.close();
    }
  });

  it('when lookups run in order but far apart then few scans are opened and wasted', () => {
    const many = Array.from({ length: 6_000 }, (_, index) => `item-${String(index).padStart(5, '0')}`);
    const writing = openFragmentStore(dir, 'settings');
    for (const slug of many) writing.put('page', slug, 'd', Buffer.from(slug));
    writing.close();
    const store = openFragmentStore(dir, 'settings');
    try {
      // One in 50 rows, as a shard's products are spread over the catalog: too far apart to walk.
      const sparse = many.filter((_, index) => index % 50 === 0);
      for (const slug of sparse) expect(store.get('page', slug, 'd')?.bytes.toString()).toBe(slug);
      expect(sparse.length).toBeGreaterThan(100);
      expect(store.reads.scans).toBeLessThanOrEqual(3);
    } finally {
      store.close();
    }
  });

  it('when the file was started empty then a kind not yet written is answered without a query', () => {
    const store = openFragmentStore(dir, 'settings');
    try {
      expect(store.state).toBe('created');
      for (const slug of slugs) expect(store.get('page', slug, `digest-${slug}`)).toBeUndefined();
      expect(store.reads).toEqual({ scans: 0, points: 0 });
      // Once this build wrote a row of the kind, its lookups go to the file again and find it.
      store.put('page', 'product-0007', 'digest-product-0007', Buffer.from('body'));
      // Committed, so that the reading connection sees it.
      store.markValidated();
      expect(store.get('page', 'product-0007', 'digest-product-0007')?.bytes.toString()).toBe('body');
      expect(store.get('page', 'product-0008', 'digest-product-0008')).toBeUndefined();
      expect(store.reads.points).toBe(2);
    } finally {
      store.close();
    }
  });

  it('when the digest differs or the slug is unknown then nothing is found', () => {
    fill();
    const store = openFragmentStore(dir, 'settings');
    try {
      expect(store.get('page', 'product-0010', 'another digest')).toBeUndefined();
      expect(store.get('page', 'product-0010x', 'digest-product-0010x')).toBeUndefined();
      expect(store.get('other kind', 'product-0010', 'digest-product-0010')).toBeUndefined();
      expect(store.get('page', 'product-0011', 'digest-product-0011')?.validated).toBe(true);
    } finally {
      store.close();
    }
  });

  it('when a gate passed then the rows written before it are validated and those written after it are not', () => {
    const first = openFragmentStore(dir, 'settings');
    first.put('page', 'before', 'd', Buffer.from('before'));
    first.markValidated();
    first.put('page', 'after', 'd', Buffer.from('after'));
    first.close();
    const second = openFragmentStore(dir, 'settings');
    try {
      expect(second.get('page', 'before', 'd')?.validated).toBe(true);
      expect(second.get('page', 'after', 'd')?.validated).toBe(false);
    } finally {
      second.close();
    }
  });

  it('when a build wrote rows and no gate passed then they stay unvalidated until a later gate passes', () => {
    fill();
    const failed = openFragmentStore(dir, 'settings');
    failed.put('page', 'product-0001', 'new digest', Buffer.from('new body'));
    failed.close();
    const next = openFragmentStore(dir, 'settings');
    expect(next.get('page', 'product-0001', 'new digest')?.validated).toBe(false);
    // Rows an earlier gate passed keep their mark.
    expect(next.get('page', 'product-0002', 'digest-product-0002')?.validated).toBe(true);
    next.markValidated();
    next.close();
    const last = openFragmentStore(dir, 'settings');
    try {
      expect(last.get('page', 'product-0001', 'new digest')?.validated).toBe(true);
    } finally {
      last.close();
    }
  });

  it('when the file was written under other settings then it is started again, empty, and says why', () => {
    fill();
    const store = openFragmentStore(dir, 'other settings');
    try {
      expect(store.state).toBe('rebuilt');
      expect(store.reason).toMatch(/other settings/);
      expect(store.get('page', 'product-0010', 'digest-product-0010')).toBeUndefined();
    } finally {
      store.close();
    }
  });
});
