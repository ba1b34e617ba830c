/**
 * The knowledge base's check against products.json with its sections kept as digests
 * (emit/kb-section-digests.ts): what it says, and in which order, must be what comparing
 * the sections' real strings says, for a section missing, a section that differs and a
 * section listed twice.
 */
import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { emitBundle } from '../../../generator/emit/index.js';
import type { KnowledgeBaseProduct } from '../../../generator/emit/kb-markdown.js';
import { comparedDigest, indexSections } from '../../../generator/emit/kb-section-digests.js';
import { validateArtifacts } from '../../../generator/validate/index.js';
import { makeManyProducts, makeSampleConfig, makeSamplePlan } from '../../helpers/sample-plan.js';
import { editText } from './tamper.js';

const config = makeSampleConfig();
const products = makeManyProducts(config, 60);
const artifacts: readonly Artifact[] = emitBundle(makeSamplePlan({ config, products }));
const kbPath = artifacts.map(({ path }) => path).find((path) => /^kb\/[^/]+-knowledge-base\.md$/.test(path));

function kbProblems(edit: (text: string) => string): { rule: string; message: string }[] {
  if (kbPath === undefined) throw new Error('no knowledge base');
  return validateArtifacts(editText(artifacts, kbPath, edit))
    .filter((problem) => problem.path === kbPath && problem.rule === 'kb')
    .map(({ rule, message }) => ({ rule, message }));
}

function recordAt(at: number): {
  slug: string;
  url: string;
  price: string;
  currency: string;
  availability: string;
} {
  const record = products[at]?.record;
  if (record === undefined) throw new Error(`no product ${at}`);
  return record;
}

/** The section's `- Label: value` line of product `at` replaced by `line`. */
function replaceLine(text: string, at: number, label: string, line: string): string {
  const start = text.indexOf(`\n- ID: ${recordAt(at).slug}\n`);
  const from = text.indexOf(`\n- ${label}: `, start);
  const end = text.indexOf('\n', from + 1);
  return `${text.slice(0, from)}\n${line}${text.slice(end)}`;
}

describe('the knowledge base against products.json, its sections as digests', () => {
  it('when the sample is built then the knowledge base agrees with products.json', () => {
    expect(kbProblems((text) => `${text}\n`)).toEqual([]);
  });

  it("when one product's section is gone and a later one states another price then both are said, in products.json's order", () => {
    const missing = recordAt(7);
    const differing = recordAt(41);
    const problems = kbProblems((text) =>
      replaceLine(replaceLine(text, 7, 'ID', '- ID: no-such-product'), 41, 'Price', '- Price: 999.99 XXX'),
    );
    expect(problems).toEqual([
      { rule: 'kb', message: `product ${missing.slug} is in products.json but not in the knowledge base` },
      { rule: 'kb', message: `product ${differing.slug}: price differs from products.json` },
    ]);
  });

  it('when a section takes the id of the one before it then the last of the two is compared, the other product is missing, and the counts differ', () => {
    const first = recordAt(20);
    const second = recordAt(21);
    const problems = kbProblems((text) => replaceLine(text, 21, 'ID', `- ID: ${first.slug}`));
    // The second section now speaks for the first product, with the second one's facts.
    const expected = [
      ...(first.url === second.url ? [] : [`product ${first.slug}: link differs from products.json`]),
      ...(`${first.price} ${first.currency}` === `${second.price} ${second.currency}`
        ? []
        : [`product ${first.slug}: price differs from products.json`]),
      ...(first.availability === second.availability
        ? []
        : [`product ${first.slug}: availability differs from products.json`]),
      `product ${second.slug} is in products.json but not in the knowledge base`,
      'the knowledge base and products.json list different products',
    ];
    expect(expected.length).toBeGreaterThan(2);
    expect(problems).toEqual(expected.map((message) => ({ rule: 'kb', message })));
  });
});

describe('a products.json record without a slug', () => {
  it('when a record has no slug then it is said to have no section, and the check does not throw', () => {
    const edited = editText(artifacts, 'kb/products.json', (text) => text.replace(/"slug": ?"[^"]*",/, ''));
    const problems = validateArtifacts(edited).filter((problem) => problem.path === kbPath);
    expect(problems).toContainEqual({
      path: kbPath,
      rule: 'kb',
      message: 'product undefined is in products.json but not in the knowledge base',
    });
  });
});

describe('indexSections', () => {
  const section = (id: string, price: string): KnowledgeBaseProduct => ({
    name: id,
    id,
    link: `https://shop.test/products/${id}`,
    price,
    availability: 'in_stock',
    facts: {},
    variants: [],
  });

  it('when every id is its own then each id finds the digest of its own facts, and unknown ids none', () => {
    const sections = [section('a', '1.00 EUR'), section('b', '2.00 EUR'), section('c', '3.00 EUR')];
    const index = indexSections(sections);
    expect(index.size).toBe(3);
    for (const one of sections) expect(index.factsOf(one.id)).toBe(comparedDigest(one));
    expect(index.factsOf('d')).toBeUndefined();
  });

  it('when an id repeats then the ids are counted once and the last section of the id wins', () => {
    const index = indexSections([
      section('a', '1.00 EUR'),
      section('b', '2.00 EUR'),
      section('a', '9.00 EUR'),
    ]);
    expect(index.size).toBe(2);
    expect(index.factsOf('a')).toBe(comparedDigest(section('a', '9.00 EUR')));
    expect(index.factsOf('a')).not.toBe(comparedDigest(section('a', '1.00 EUR')));
  });
});
