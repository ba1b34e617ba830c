/**
 * The consistency check reads the feed, the sitemap and the knowledge base item by item,
 * from their bytes a few at a time when they are chunked, and keeps nothing of them for the
 * bundle: these tests break a document deep in it and expect the same problems, with their
 * details, as its whole text gives.
 */
import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { spillArtifactInChunks } from '../../../generator/compact-artifact.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { readKnowledgeBaseProducts } from '../../../generator/emit/kb-markdown.js';
import { streamKnowledgeBase } from '../../../generator/emit/kb-reading.js';
import { bundleFilesOf, validateArtifacts } from '../../../generator/validate/index.js';
import { blocks, blocksOfTexts } from '../../../generator/validate/xml-blocks.js';
import { makeManyProducts, makeSampleConfig, makeSamplePlan } from '../../helpers/sample-plan.js';
import { editJson, editText, type Json, productAt } from './tamper.js';

const config = makeSampleConfig();
const artifacts: readonly Artifact[] = emitBundle(
  makeSamplePlan({ config, products: makeManyProducts(config, 300) }),
);
const CATALOG = 'agent-catalog.json';
const KB = artifacts.find((artifact) => /^kb\/[^/]+-knowledge-base\.md$/.test(artifact.path))?.path ?? '';

/** The artifacts with `path` read from its bytes seven at a time, as a parted document is. */
function chunked(from: readonly Artifact[], path: string): Artifact[] {
  return from.map((artifact) => {
    if (artifact.path !== path) return artifact;
    // Without the tree it was emitted from: the gate must read these bytes, edited or not.
    const { serialisedFrom: _tree, ...text } = artifact;
    const bytes = Buffer.from(text.body, 'utf8');
    return spillArtifactInChunks(text, function* () {
      for (let at = 0; at < bytes.length; at += 7) yield bytes.subarray(at, at + 7);
    });
  });
}

function consistencyOf(from: readonly Artifact[], path: string) {
  return validateArtifacts(from).filter((problem) => problem.path === path && problem.rule === 'consistency');
}

describe('the consistency check on documents read item by item', () => {
  it('when the blocks of an XML text are cut anywhere then they are the blocks of the whole text', () => {
    const text =
      '<urlset><url><loc>a</loc></url>\n<url><loc>b&amp;c</loc></url><url><loc>d</loc></url></urlset>';
    for (let cut = 0; cut <= text.length; cut++) {
      for (let second = cut; second <= text.length; second++) {
        const pieces = [text.slice(0, cut), text.slice(cut, second), text.slice(second)];
        expect([...blocksOfTexts(pieces, 'url')]).toEqual([...blocks(text, 'url')]);
      }
    }
  });

  it('when feed.xml is read a few bytes at a time and its last item states another price then that variant is named with both prices', () => {
    const broken = editText(artifacts, 'feed.xml', (text) => {
      const at = text.lastIndexOf('<g:price>');
      return `${text.slice(0, at)}<g:price>999.99 USD${text.slice(text.indexOf('</g:price>', at))}`;
    });
    const problems = consistencyOf(chunked(broken, 'feed.xml'), 'feed.xml');
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(
      /^juice-0299 variant \S+: price is 999\.99 USD, the catalog says \d/,
    );
    expect(problems).toEqual(consistencyOf(broken, 'feed.xml'));
  });

  it('when the catalog repeats a variant id in its last product then the catalog is refused naming that id', () => {
    let id = '';
    const broken = editJson(artifacts, CATALOG, (catalog) => {
      const first = (productAt(catalog, 0).variants as Json[])[0];
      const last = (productAt(catalog, 299).variants as Json[])[0];
      if (first === undefined || last === undefined) throw new Error('no variants');
      id = String(first.id);
      last.id = id;
    });
    const problems = consistencyOf(broken, CATALOG);
    expect(problems.some((problem) => problem.message.includes(id))).toBe(true);
  });

  it('when the sitemap is read a few bytes at a time and leaves out the last product then that product is named', () => {
    const broken = editText(artifacts, 'sitemap.xml', (text) =>
      text.replace(/<url>\s*<loc>[^<]*\/products\/juice-0299<\/loc>[\s\S]*?<\/url>/, ''),
    );
    const problems = consistencyOf(chunked(broken, 'sitemap.xml'), 'sitemap.xml');
    expect(problems.map((problem) => problem.message)).toEqual([
      expect.stringContaining('/products/juice-0299'),
    ]);
  });

  it('when the knowledge base is read a few bytes at a time with CRLF line breaks then its reading is that of its whole text', () => {
    const crlf = editText(artifacts, KB, (text) => text.replace(/\n/g, '\r\n'));
    const files = bundleFilesOf(chunked(crlf, KB));
    const reading = streamKnowledgeBase(files, KB);
    expect(reading?.frontMatter).toMatchObject({ ok: true, hasTitle: true });
    const sections = [...(reading?.sections ?? [])];
    expect(sections).toHaveLength(300);
    expect(sections).toEqual(readKnowledgeBaseProducts(files.get(KB) ?? ''));
    expect(validateArtifacts(chunked(crlf, KB)).filter((problem) => problem.path === KB)).toEqual([]);
  });

  it('when the knowledge base has no front matter then it is refused as it was when read whole', () => {
    const broken = editText(artifacts, KB, (text) => text.slice(text.indexOf('\n---\n') + 5));
    const problems = validateArtifacts(chunked(broken, KB)).filter((problem) => problem.path === KB);
    expect(problems.map((problem) => problem.rule)).toContain('front-matter');
    expect(problems).toEqual(validateArtifacts(broken).filter((problem) => problem.path === KB));
  });
});
