/**
 * The builder's vocabulary (live/term-table.ts) and its chunked lists (live/string-chunks.ts):
 * each term numbered once in the order first seen, found again past the table's growth,
 * read back as the same string and ordered as `<` orders strings; items read back from
 * joined chunks and the chunk still being filled.
 */
import { describe, expect, it } from 'vitest';
import { StringChunks } from '../../live/string-chunks.js';
import { TermTable } from '../../live/term-table.js';

const TERMS = ['lemon', 'açaí', '日本茶', '🍋x', 'a', 'ab', 'b', 'z'.repeat(20_000), '', 'lemons', '\ud800'];

describe('a term table', () => {
  it('numbers each term once, in the order first seen, and finds it again after growing', () => {
    const table = new TermTable();
    const many = Array.from({ length: 5_000 }, (_, index) => `w${index.toString(36)}`);
    const words = [...TERMS, ...many];
    expect(words.map((word) => table.idOf(word))).toEqual(words.map((_, index) => index));
    expect([...words].reverse().map((word) => table.idOf(word))).toEqual(
      words.map((_, index) => words.length - 1 - index),
    );
    expect(table.length).toBe(words.length);
    expect(words.map((_, id) => table.termAt(id))).toEqual(words);
  });

  it('orders terms by code unit, as `<` does', () => {
    const table = new TermTable();
    for (const term of TERMS) table.idOf(term);
    const byTable = TERMS.map((_, id) => id)
      .sort((a, b) => table.compare(a, b))
      .map((id) => TERMS[id]);
    expect(byTable).toEqual([...TERMS].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});

describe('a chunked list of strings', () => {
  it('reads every item back, from joined chunks and the one being filled', () => {
    const list = new StringChunks();
    const items = Array.from({ length: 2_500 }, (_, index) => (index % 7 === 0 ? '' : `id-${index}-é`));
    for (const item of items) list.push(item);
    expect(list.length).toBe(items.length);
    expect(items.map((_, index) => list.at(index))).toEqual(items);
    expect([list.at(-1), list.at(items.length)]).toEqual([undefined, undefined]);
  });
});
