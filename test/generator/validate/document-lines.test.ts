/**
 * A document read line by line from its chunks (a parted document part by part, never
 * joined) gives the lines its whole text gives, and the ACP snapshot's checker, reading a
 * parted snapshot that way, still names a bad product deep in its last parts.
 */
import { describe, expect, it } from 'vitest';
import { spillArtifactInChunks } from '../../../generator/compact-artifact.js';
import { ACP_PRODUCTS_FILE } from '../../../generator/emit/agent-feeds/acp-feed.js';
import { wholeDocuments } from '../../../generator/emit/document-storage.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { partSizesAround } from '../../../generator/parts/cut-parts.js';
import { bundleFilesOf, validateBundle } from '../../../generator/validate/index.js';
import { documentLines, documentTexts, textLines } from '../../../generator/validate/text-lines.js';
import {
  makeManyProducts,
  makeSampleConfig,
  makeSamplePlan,
  SAMPLE_CONFIG_INPUT,
} from '../../helpers/sample-plan.js';

describe('documentLines', () => {
  const text = 'first line\nsecond €uro line\n\n{"a":"ü"}\nlast without newline';
  const bytes = Buffer.from(text, 'utf8');

  it.each([1, 2, 3, 7, bytes.length])(
    "when the bytes come in chunks of %i then the lines are the whole text's",
    (size) => {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      const artifact = spillArtifactInChunks(
        { path: 'doc.jsonl', mediaType: 'application/jsonl', body: '' },
        () => chunks,
      );
      const files = bundleFilesOf([artifact]);
      expect([...documentLines(files, 'doc.jsonl')]).toEqual([...textLines(text)]);
      expect(files.get('doc.jsonl')).toBe(text);
    },
  );

  it('when the text ends with a newline then its last line is empty, as textLines says', () => {
    const artifact = spillArtifactInChunks(
      { path: 'doc.jsonl', mediaType: 'application/jsonl', body: '' },
      () => [Buffer.from('a\nb\n', 'utf8')],
    );
    expect([...documentLines(bundleFilesOf([artifact]), 'doc.jsonl')]).toEqual([
      ['a', 1],
      ['b', 2],
      ['', 3],
    ]);
  });

  it('when the bundle is text then its lines are read from the text, and nothing from a missing file', () => {
    const files = new Map([['doc.jsonl', 'x\ny']]);
    expect([...documentLines(files, 'doc.jsonl')]).toEqual([...textLines('x\ny')]);
    expect([...documentLines(files, 'missing.jsonl')]).toEqual([]);
  });
});

describe('documentTexts', () => {
  it('when one chunk is larger than a mebibyte then it comes in pieces that join to the text, a cut character whole', () => {
    // "x" then two-byte characters: the mebibyte mark falls inside one of them.
    const text = `x${'é'.repeat(1 << 20)}\nend`;
    const artifact = spillArtifactInChunks(
      { path: 'doc.jsonl', mediaType: 'application/jsonl', body: '' },
      () => [Buffer.from(text, 'utf8')],
    );
    const pieces = [...(documentTexts(bundleFilesOf([artifact]), 'doc.jsonl') ?? [])];
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.join('')).toBe(text);
    expect(pieces.every((piece) => !piece.includes('\ufffd'))).toBe(true);
  });
});

describe('the ACP snapshot parted', () => {
  const config = makeSampleConfig({
    ...SAMPLE_CONFIG_INPUT,
    live: { enabled: true },
    agent_feeds: { acp: { enabled: true } },
  });

  it('when a product deep in it repeats an earlier variant id then the parted snapshot names it as its text does', () => {
    const products = makeManyProducts(config, 300);
    const early = products[5];
    const late = products[290];
    if (early === undefined || late === undefined) throw new Error('too few products');
    products[290] = { ...late, record: { ...late.record, variants: early.record.variants } };
    const plan = { ...makeSamplePlan({ config, products }), partSizes: partSizesAround(4096) };
    const documents = wholeDocuments(emitBundle(plan));
    const stored = emitBundle(plan).map((artifact) => artifact.path);
    expect(stored).toContain(`_parts/${ACP_PRODUCTS_FILE}/manifest.json`);
    const acp = (files: ReadonlyMap<string, string>) =>
      validateBundle(files).filter((problem) => problem.path === ACP_PRODUCTS_FILE);
    const problems = acp(bundleFilesOf(documents));
    const variant = early.record.variants[0]?.id ?? '';
    expect(problems).toEqual([
      {
        path: ACP_PRODUCTS_FILE,
        rule: 'agent-feed',
        message: expect.stringMatching(
          /^juice-0290 variant \d+: link is .*juice-0005, the catalog says .*juice-0290$/,
        ),
      },
      { path: ACP_PRODUCTS_FILE, rule: 'agent-feed', message: `variant ${variant} appears twice` },
    ]);
    expect(problems).toEqual(acp(new Map(documents.map((document) => [document.path, document.body]))));
  });
});
