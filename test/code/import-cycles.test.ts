/**
 * No import cycles, types included (docs/contributing.md, "Style"), in the folders that
 * have none: the issuer (whose `store/` had one of six files, the row types in `store.ts`
 * read by the query modules `store.ts` imports; they now live in `store/rows.ts`), the
 * access-token verifier, the live handler, the product record, the shared CLI code and
 * the generator (whose gate had one: `offer-agreement.ts` and `consistency-feed.ts`, over
 * `canonicalPrice`, now in `record/decimal-price.ts`; and whose emitters had several). The
 * checker itself is proved on a graph with a cycle.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCycles, readImportGraph } from './import-graph.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CYCLE_FREE = ['auth-server', 'access-token', 'live', 'record', 'cli'] as const;

describe('import cycles', () => {
  it('finds a cycle of type imports, and none in a graph without one', () => {
    const cyclic = new Map([
      ['store.ts', ['counters.ts', 'rows.ts']],
      ['counters.ts', ['schema.ts']],
      ['schema.ts', ['store.ts']],
      ['rows.ts', []],
    ]);
    expect(findCycles(cyclic)).toEqual([['counters.ts', 'schema.ts', 'store.ts', 'counters.ts']]);
    cyclic.set('schema.ts', ['rows.ts']);
    expect(findCycles(cyclic)).toEqual([]);
  });

  it('reads the store folder’s real imports, type imports included', () => {
    const graph = readImportGraph(ROOT, ['auth-server/store']);
    expect(graph.get('auth-server/store/store.ts')).toContain('auth-server/store/counters.ts');
    expect(graph.get('auth-server/store/schema.ts')).toEqual(['auth-server/store/rows.ts']);
    expect(graph.get('auth-server/store/rows.ts')).toEqual([]);
  });

  for (const folder of CYCLE_FREE) {
    it(`has no import cycle in ${folder}/`, () => {
      expect(findCycles(readImportGraph(ROOT, [folder]))).toEqual([]);
    });
  }

  // generator/emit/ had cycles among its discovery documents (live-endpoints, live-index,
  // markdown-twins, ai-catalog, well-known, landing, webmcp): `liveEndpoints` lived in
  // live-index.ts, which the others reached through markdown-twins.ts. It now lives in
  // live-endpoints.ts, and the whole generator has none.
  it('has no import cycle in generator/', () => {
    expect(findCycles(readImportGraph(ROOT, ['generator']))).toEqual([]);
  });
});
