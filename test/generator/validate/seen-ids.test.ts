/**
 * The feed checks' ids met (`SeenIds`, issue 29): a bit per number the catalog gives, and
 * the text of the few ids outside it; the second of an id is said either way.
 */
import { describe, expect, it } from 'vitest';
import { SeenIds } from '../../../generator/validate/agent-feeds/seen-ids.js';

describe('the ids a feed check has met', () => {
  it('when an id the catalog numbers comes twice then the second is said, and its bit is set', () => {
    const seen = new SeenIds(20);
    expect(seen.add(9, 'v-9')).toBe(false);
    expect(seen.has(9)).toBe(true);
    expect(seen.has(8)).toBe(false);
    expect(seen.add(9, 'v-9')).toBe(true);
    expect(seen.add(19, 'v-19')).toBe(false);
  });

  it('when ids outside the catalog come then each is told apart by its text', () => {
    const seen = new SeenIds(0);
    expect(seen.add(-1, 'ghost')).toBe(false);
    expect(seen.add(-1, 'stray')).toBe(false);
    expect(seen.add(-1, 'ghost')).toBe(true);
  });

  it('when 2,700,000 variants are numbered then the ids met take one bit each', () => {
    expect(new SeenIds(2_700_000).byteLength).toBe(337_500);
  });

  it('when a number past the catalog is added then it is refused as misuse', () => {
    expect(() => new SeenIds(16).add(16, 'v')).toThrow(TypeError);
    expect(() => new SeenIds(16).add(1.5, 'v')).toThrow(TypeError);
  });
});
