import { describe, expect, it } from 'vitest';
import { emitCatalog } from '../../../generator/emit/catalog.js';
import {
  decodeCatalogFacts,
  encodeCatalogFacts,
  factsOfPlan,
  readCatalogFacts,
} from '../../../generator/publish/catalog-facts.js';
import { productFactsOf } from '../../../generator/summary/diff.js';
import { makeSamplePlan } from '../../helpers/sample-plan.js';

/** `text` as chunks of `size` bytes: items and characters cut anywhere. */
async function* chunksOf(text: string, size = 7): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** The facts as the whole document parsed at once gives them: what the streamed reading must agree with. */
function parsedFacts(text: string) {
  const data: unknown = JSON.parse(text);
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  return {
    count: Array.isArray(record.products) ? record.products.length : 0,
    ...(typeof record.generated === 'string' ? { generated: record.generated } : {}),
    products: productFactsOf(data),
  };
}

const DOCUMENTS = {
  catalog:
    '{"generated":"2026-11-21T12:00:00.000Z","count":2,"products":[{"slug":"a","price":"1.00","availability":"in_stock","name":"Å 🍑"},{"slug":"b","price":2,"availability":"sold_out"}]}',
  'a malformed entry': '{"products":[{"slug":"a","price":"1.00"},7,null,{"price":"3.00"},[]]}',
  'a bare array': '[{"slug":"a","price":"1.00","availability":"in_stock"}]',
  'products that are not an array': '{"generated":5,"products":{"slug":"a"}}',
  'members given twice':
    '{"generated":"x","products":[{"slug":"a"}],"generated":"y","products":[{"slug":"b"},{"slug":"c"}]}',
  'an empty catalog': '{"products":[]}',
};

describe("the last catalog's facts, read item by item", () => {
  for (const [name, text] of Object.entries(DOCUMENTS)) {
    it(`when the document is ${name} then the facts are those of the document parsed whole`, async () => {
      expect(await readCatalogFacts(chunksOf(text), 'agent-catalog.json')).toEqual(parsedFacts(text));
    });
  }

  it('when the document is not JSON then reading it fails', async () => {
    await expect(readCatalogFacts(chunksOf('{"products":[{"slug":'), 'agent-catalog.json')).rejects.toThrow();
    await expect(readCatalogFacts(chunksOf('{"products":[]} x'), 'agent-catalog.json')).rejects.toThrow();
  });

  it("when a plan's catalog is emitted then its facts are the ones read from the document", async () => {
    const plan = makeSamplePlan();
    const [catalog] = emitCatalog(plan);
    expect(await readCatalogFacts(chunksOf(catalog?.body ?? '', 4096), 'agent-catalog.json')).toEqual(
      factsOfPlan(plan),
    );
  });
});

describe('the facts as the build cache keeps them', () => {
  it('when they are kept then they read back the same', () => {
    const facts = parsedFacts(DOCUMENTS.catalog);
    expect(decodeCatalogFacts(encodeCatalogFacts(facts))).toEqual(facts);
    const bare = { count: 0, products: [] };
    expect(decodeCatalogFacts(encodeCatalogFacts(bare))).toEqual(bare);
  });

  it('when the bytes are not such facts then nothing is read from them', () => {
    for (const text of [
      '',
      'null',
      '{"count":1}',
      '{"count":1,"products":[["a","b"]]}',
      '{"count":"1","products":[]}',
    ])
      expect(decodeCatalogFacts(Buffer.from(text))).toBeUndefined();
  });
});
