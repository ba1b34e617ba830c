/**
 * The checkers that read a large document piece by piece (the product pages one page shard
 * at a time, the OpenAI feed one shard pair at a time, its CSV row by row) still find a
 * bad item deep in the last piece, and say the same as a reading of the whole would.
 */
import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { spillArtifactInChunks } from '../../../generator/compact-artifact.js';
import { OPENAI_FEED_DIR } from '../../../generator/emit/agent-feeds/openai-feed.js';
import { FEED_FILE } from '../../../generator/emit/feed.js';
import { checkFeed } from '../../../generator/emit/feed-check.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { readKnowledgeBase } from '../../../generator/emit/kb.js';
import { computeEtag } from '../../../generator/preview/conditional.js';
import { isRecord } from '../../../generator/validate/bundle-layout.js';
import { bundleFilesOf, validateArtifacts, validateBundle } from '../../../generator/validate/index.js';
import { PAGES_MANIFEST_PATH } from '../../../live/live-layout.js';
import { readPackedEntries } from '../../../live/packed-shard.js';
import { packPageShard } from '../../../live/page-store.js';
import {
  makeManyProducts,
  makeSampleConfig,
  makeSamplePlan,
  SAMPLE_CONFIG_INPUT,
  SAMPLE_OPENAI_FEED,
} from '../../helpers/sample-plan.js';
import { editText } from './tamper.js';

const config = makeSampleConfig({
  ...SAMPLE_CONFIG_INPUT,
  live: { enabled: true },
  // Small shards, so the catalog below makes several and the last one is deep in the feed.
  agent_feeds: { openai: { ...SAMPLE_OPENAI_FEED, shard_rows: 100 } },
});

const manyProducts = (count: number) => makeManyProducts(config, count);

const plan = makeSamplePlan({ config, products: manyProducts(450) });
// Four page shards where this many products would make one, so the last is not the first.
const artifacts: readonly Artifact[] = emitBundle({ ...plan, shards: { ...plan.shards, pages: 4 } });

function pathsOf(prefix: string, suffix: string): string[] {
  return artifacts
    .map((artifact) => artifact.path)
    .filter((path) => path.startsWith(prefix) && path.endsWith(suffix))
    .sort();
}

function lastOf(paths: readonly string[]): string {
  const last = paths.at(-1);
  if (last === undefined) throw new Error('no such files');
  return last;
}

const pageShards = pathsOf('_live/pages/', '.pack');
const jsonlShards = pathsOf(`${OPENAI_FEED_DIR}/`, '.jsonl.gz');
const csvShards = pathsOf(`${OPENAI_FEED_DIR}/`, '.csv.gz');

/** The body of `text` with its last line (of those ending in a newline) changed by `edit`. */
function editLastLine(text: string, edit: (line: string) => string): string {
  const lines = text.split('\n');
  const last = lines.length - (lines.at(-1) === '' ? 2 : 1);
  lines[last] = edit(lines[last] ?? '');
  return lines.join('\n');
}

/** The artifacts with the last row of the JSON Lines shard `path` given `fields`, and that row's item id. */
function editLastRow(
  from: readonly Artifact[],
  path: string,
  fields: Record<string, unknown>,
): { broken: Artifact[]; id: string } {
  let id = '';
  const broken = editText(from, path, (text) =>
    editLastLine(text, (line) => {
      const row = JSON.parse(line) as Record<string, unknown>;
      id = String(row.item_id);
      return JSON.stringify({ ...row, ...fields });
    }),
  );
  return { broken, id };
}

describe('the streamed checkers on a bundle of many pieces', () => {
  it('when the bundle is as emitted then it has several shards of each kind and passes', () => {
    expect(artifacts.some((artifact) => artifact.path === PAGES_MANIFEST_PATH)).toBe(true);
    expect(pageShards.length).toBeGreaterThan(1);
    expect(jsonlShards.length).toBeGreaterThan(3);
    expect(csvShards.length).toBe(jsonlShards.length);
    expect(validateArtifacts(artifacts)).toEqual([]);
  });

  it('when a page in the last page shard states another price then that page is named', () => {
    const shard = lastOf(pageShards);
    let slug = '';
    const broken = editText(artifacts, shard, (text) => {
      const entries = readPackedEntries(text);
      const last = entries.at(-1);
      if (last === undefined) throw new Error('an empty page shard');
      slug = last.key;
      const body = last.body.replace(/^price: .*$/m, "price: '999.99'");
      if (body === last.body) throw new Error('the page states no price');
      // A consistent shard (its entity tag updated too): only the front matter is wrong.
      return packPageShard(
        entries.map((entry) =>
          entry === last
            ? { name: entry.key, body, etag: computeEtag(Buffer.from(body, 'utf8')) }
            : { name: entry.key, body: entry.body, etag: entry.meta },
        ),
      );
    });
    const problems = validateArtifacts(broken).filter((problem) => problem.rule === 'markdown');
    expect(problems).toEqual([
      {
        path: `kb/products/${slug}.md`,
        rule: 'markdown',
        message: expect.stringMatching(/^price is 999\.99, the catalog says /),
      },
    ]);
  });

  it("when the last CSV shard's last row differs from its JSON Lines twin then that row is named", () => {
    const csv = lastOf(csvShards);
    const jsonl = csv.replace(/\.csv\.gz$/, '.jsonl.gz');
    const rows = artifacts
      .find((artifact) => artifact.path === jsonl)
      ?.body.split('\n')
      .filter(Boolean).length;
    const broken = editText(artifacts, csv, (text) =>
      editLastLine(text, (line) => line.replace('USD', 'EUR')),
    );
    const problems = validateArtifacts(broken).filter((problem) => problem.rule === 'agent-feed');
    expect(problems).toEqual([
      {
        path: csv,
        rule: 'agent-feed',
        message: expect.stringContaining('does not match the manifest digest'),
      },
      { path: csv, rule: 'agent-feed', message: `row ${rows} differs from row ${rows} of ${jsonl}` },
    ]);
  });

  it('when a CSV shard quotes every cell of its last row then it still says what its twin says', () => {
    const csv = lastOf(csvShards);
    // Other bytes, the same cells: read back by csv-parse, not taken as a difference.
    const quoted = (line: string) =>
      line
        .split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)
        .map((cell) => (cell.startsWith('"') ? cell : `"${cell}"`))
        .join(',');
    const broken = editText(artifacts, csv, (text) => editLastLine(text, quoted));
    const problems = validateArtifacts(broken).filter((problem) => problem.rule === 'agent-feed');
    expect(problems).toEqual([
      {
        path: csv,
        rule: 'agent-feed',
        message: expect.stringContaining('does not match the manifest digest'),
      },
    ]);
  });

  it("when the last JSON Lines shard's last row states another price then the item and its twin are named", () => {
    const jsonl = lastOf(jsonlShards);
    const csv = jsonl.replace(/\.jsonl\.gz$/, '.csv.gz');
    const { broken, id } = editLastRow(artifacts, jsonl, { price: '999.99 USD' });
    const problems = validateArtifacts(broken).filter((problem) => problem.rule === 'agent-feed');
    expect(problems.map((problem) => problem.path)).toEqual([jsonl, csv, jsonl]);
    expect(problems[1]?.message).toMatch(/^row \d+ differs from row \d+ of /);
    expect(problems[2]?.message).toMatch(
      new RegExp(`variant ${id}: price is 999\\.99 USD, the catalog says `),
    );
  });

  it("when the feed is read in small chunks and its last shard's last row breaks a rule and repeats the first shard's id then both are named, as its text says", () => {
    const products = manyProducts(450);
    const early = products[5];
    const late = products[440];
    if (early === undefined || late === undefined) throw new Error('too few products');
    // The late product's variants take the early one's ids: a duplicate across the first and last shards.
    products[440] = { ...late, record: { ...late.record, variants: early.record.variants } };
    const built = emitBundle(makeSamplePlan({ config, products }));
    const jsonl = lastOf(built.map((artifact) => artifact.path).filter((path) => path.endsWith('.jsonl.gz')));
    const id = String(early.record.variants[0]?.id);
    const { broken, id: last } = editLastRow(built, jsonl, { availability: 'sold_out' });
    // Every shard read from chunks of 7 bytes: every row cut across chunks.
    const chunked = broken.map((artifact) => {
      if (!artifact.path.startsWith(`${OPENAI_FEED_DIR}/`)) return artifact;
      const bytes = Buffer.from(artifact.body, 'utf8');
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += 7) chunks.push(bytes.subarray(at, at + 7));
      return spillArtifactInChunks({ ...artifact, body: '' }, () => chunks);
    });
    const feed = (files: ReadonlyMap<string, string>) =>
      validateBundle(files)
        .filter((problem) => problem.rule === 'agent-feed' && problem.path.startsWith(OPENAI_FEED_DIR))
        .map((problem) => `${problem.path}: ${problem.message}`);
    const said = feed(bundleFilesOf(chunked));
    const csv = jsonl.replace(/\.jsonl\.gz$/, '.csv.gz');
    expect(said).toEqual([
      `${jsonl}: content does not match the manifest digest (corrupt, or changed after the build)`,
      expect.stringMatching(new RegExp(`^${csv}: row (\\d+) differs from row \\1 of ${jsonl}$`)),
      expect.stringMatching(new RegExp(`^${OPENAI_FEED_DIR}/.*: juice-0440 variant ${id}: link is `)),
      `${jsonl}: item_id ${id} appears twice`,
      `${jsonl}: item ${last}: availability "sold_out" is not a supported value`,
      expect.stringMatching(new RegExp(`^${jsonl}: juice-0449 variant ${last}: availability is sold_out`)),
    ]);
    expect(said).toEqual(feed(new Map(broken.map((artifact) => [artifact.path, artifact.body]))));
  });

  it('when a CSV shard in the middle loses a row and is not CSV at its end then both are said, in manifest order', () => {
    const middle = csvShards[1] ?? '';
    const last = lastOf(csvShards);
    const shorter = editText(artifacts, middle, (text) =>
      editLastLine(text, () => '').replace(/\n\n$/, '\n'),
    );
    const broken = editText(shorter, last, (text) => `${text}"an unclosed quote\n`);
    const problems = validateArtifacts(broken).filter((problem) => problem.rule === 'agent-feed');
    const said = problems.map((problem) => `${problem.path}: ${problem.message}`);
    expect(said).toEqual([
      `${middle}: content does not match the manifest digest (corrupt, or changed after the build)`,
      expect.stringMatching(new RegExp(`^${middle}: holds \\d+ rows, the manifest says \\d+$`)),
      `${last}: content does not match the manifest digest (corrupt, or changed after the build)`,
      expect.stringMatching(new RegExp(`^${last}: not valid CSV: `)),
      expect.stringMatching(new RegExp(`^${last}: holds 0 rows, the manifest says \\d+$`)),
    ]);
  });

  it("when feed.xml is read from its text and its last item's price is malformed then that item is named", () => {
    const body = artifacts.find((artifact) => artifact.path === FEED_FILE)?.body ?? '';
    const count = body.split('<item>').length - 1;
    const at = body.lastIndexOf('<g:price>');
    const broken = `${body.slice(0, at)}<g:price>12,00 USD</g:price>${body.slice(body.indexOf('</g:price>', at) + 10)}`;
    // A title in CDATA that holds what looks like the end of an item, before it.
    const first = broken.indexOf('<g:title>');
    const tricky = `${broken.slice(0, first)}<g:title><![CDATA[Juice </item><item>]]></g:title>${broken.slice(broken.indexOf('</g:title>', first) + 10)}`;
    const problems = checkFeed(new Map([[FEED_FILE, tricky]]));
    expect(count).toBeGreaterThan(400);
    expect(problems).toEqual([
      {
        path: FEED_FILE,
        rule: 'feed',
        message: expect.stringMatching(
          new RegExp(`^item ${count} \\(g:id \\d+\\): g:price is not "12.00 USD" form$`),
        ),
      },
    ]);
  });

  it('when feed.xml declares an entity its last item uses then the item reads it expanded', () => {
    const body = artifacts.find((artifact) => artifact.path === FEED_FILE)?.body ?? '';
    const at = body.lastIndexOf('<g:price>');
    const price = body.slice(at + 9, body.indexOf('</g:price>', at));
    const withEntity = `${body.slice(0, at)}<g:price>&lastprice;</g:price>${body.slice(body.indexOf('</g:price>', at) + 10)}`;
    const declared = withEntity.replace('<rss', `<!DOCTYPE rss [<!ENTITY lastprice "${price}">]>\n<rss`);
    expect(checkFeed(new Map([[FEED_FILE, declared]]))).toEqual([]);
  });

  it('when feed.xml is not well-formed deep in its last item then it is refused as XML', () => {
    const body = artifacts.find((artifact) => artifact.path === FEED_FILE)?.body ?? '';
    const at = body.lastIndexOf('</g:id>');
    const broken = `${body.slice(0, at)}</g:idx>${body.slice(at + 7)}`;
    expect(checkFeed(new Map([[FEED_FILE, broken]]))).toEqual([
      { path: FEED_FILE, rule: 'xml', message: expect.stringMatching(/^not well-formed XML \(line \d+\): /) },
    ]);
  });

  it('when the built feed repeats an id deep in it then the gate on the build names that item, as its text does', () => {
    const products = manyProducts(450);
    const [early] = products.slice(5, 6);
    const late = products[440];
    if (early === undefined || late === undefined) throw new Error('too few products');
    // The late product's variants take the early one's ids.
    products[440] = { ...late, record: { ...late.record, variants: early.record.variants } };
    const built = emitBundle(makeSamplePlan({ config, products }));
    const feed = built.find((artifact) => artifact.path === FEED_FILE);
    const text = new Map([[FEED_FILE, feed?.body ?? '']]);
    const problems = checkFeed(bundleFilesOf(built));
    expect(problems).toEqual([
      {
        path: FEED_FILE,
        rule: 'feed',
        message: expect.stringMatching(/^item 441 \(g:id \d+\): duplicate g:id$/),
      },
    ]);
    expect(problems).toEqual(checkFeed(text));
    // The build's tree renders its items as they are walked: no array of every item is made.
    const channel = [feed?.serialisedFrom?.value, 'rss', 'channel'].reduce((value, key) =>
      isRecord(value) && typeof key === 'string' ? value[key] : undefined,
    );
    expect(isRecord(channel) && Array.isArray(channel.item)).toBe(false);
  });

  it("when the knowledge base's last section states another price then that section is named, and its text is not kept", () => {
    const path = artifacts
      .map((artifact) => artifact.path)
      .find((name) => /^kb\/[^/]+-knowledge-base\.md$/.test(name));
    if (path === undefined) throw new Error('no knowledge base');
    const broken = editText(artifacts, path, (text) => {
      const at = text.lastIndexOf('\n- Price: ');
      const end = text.indexOf('\n', at + 1);
      return `${text.slice(0, at)}\n- Price: $999.99${text.slice(end)}`;
    });
    const problems = validateArtifacts(broken).filter((problem) => problem.path === path);
    expect(problems).toEqual([
      { path, rule: 'kb', message: 'product juice-0449: price differs from products.json' },
      {
        path,
        rule: 'consistency',
        message: expect.stringMatching(/^juice-0449: price is \$999\.99, the catalog says /),
      },
    ]);
    const reading = readKnowledgeBase(bundleFilesOf(broken), path);
    expect(reading?.products).toHaveLength(450);
    expect(reading?.frontMatter).not.toHaveProperty('content');
    expect(reading?.products[0]).not.toHaveProperty('facts');
  });
});
