/**
 * The feeds' rows are held to the catalog's offers (`checkOfferAgrees`), which the gate
 * keeps as digests and numbers, not text: these tests break the rows of feed.xml, the
 * OpenAI feed, the ACP feed and kb/products.json of a 60-product bundle and expect the
 * messages word for word as the gate said them when it kept every offer's text (link,
 * price, sale price, currency, availability, an unknown variant, a missing variant or
 * product), quoting the catalog's own words, in order, capped with the rest counted.
 */
import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { validateArtifacts } from '../../../generator/validate/index.js';
import {
  makeManyProducts,
  makeSampleConfig,
  makeSamplePlan,
  SAMPLE_CONFIG_INPUT,
  SAMPLE_OPENAI_FEED,
} from '../../helpers/sample-plan.js';
import { editJson, editText, type Json, productAt } from './tamper.js';

const config = makeSampleConfig({
  ...SAMPLE_CONFIG_INPUT,
  agent_feeds: { openai: { ...SAMPLE_OPENAI_FEED, shard_rows: 100 }, acp: { enabled: true } },
});
const artifacts: readonly Artifact[] = emitBundle(
  makeSamplePlan({ config, products: makeManyProducts(config, 60) }),
);
const CATALOG = 'agent-catalog.json';
const FEED = 'feed.xml';
const SHARD = 'feeds/openai/shards/products-0001.jsonl.gz';
const MANIFEST = 'feeds/openai/manifest.json';
const ACP = 'feeds/acp/products.jsonl';
const KB = 'kb/products.json';
const catalog = JSON.parse(artifacts.find((artifact) => artifact.path === CATALOG)?.body ?? '{}') as Json;

/** The messages about one document; for the OpenAI feed only those about the catalog (an edited shard also breaks its digest and twin). */
function messagesOf(from: readonly Artifact[], path: string): string[] {
  return validateArtifacts(from)
    .filter((problem) => problem.path === path)
    .map((problem) => problem.message)
    .filter((message) => !path.startsWith('feeds/openai/') || /catalog|variant|more faults/.test(message));
}

function slug(index: number): string {
  return String(productAt(catalog, index).slug);
}
function url(index: number): string {
  return String(productAt(catalog, index).url);
}
/** The id of the product's (only) variant. */
function variantId(index: number): string {
  const [variant] = productAt(catalog, index).variants as Json[];
  return String(variant?.id);
}

/** feed.xml with the item of product `index` edited. */
function editFeedItem(from: readonly Artifact[], index: number, edit: (item: string) => string): Artifact[] {
  return editText(from, FEED, (text) =>
    text.replace(new RegExp(`<item>\\s*<g:id>${variantId(index)}</g:id>[\\s\\S]*?</item>`), (item) =>
      edit(item),
    ),
  );
}

/** A JSON Lines document with the line `matches` picks edited (undefined drops it). */
function editJsonLine(
  from: readonly Artifact[],
  path: string,
  matches: (line: Json) => boolean,
  edit: (line: Json) => Json | undefined,
): Artifact[] {
  return editText(from, path, (text) =>
    text
      .split('\n')
      .flatMap((line) => {
        if (line === '') return [line];
        const parsed = JSON.parse(line) as Json;
        if (!matches(parsed)) return [line];
        const edited = edit(parsed);
        return edited === undefined ? [] : [JSON.stringify(edited)];
      })
      .join('\n'),
  );
}

/** The OpenAI shard with the row of product `index` edited (undefined drops it). */
function editShardRow(
  from: readonly Artifact[],
  index: number,
  edit: (row: Json) => Json | undefined,
): Artifact[] {
  return editJsonLine(from, SHARD, (row) => row.item_id === variantId(index), edit);
}

/** The ACP snapshot with the line of product `index` edited (undefined drops it). */
function editAcpLine(
  from: readonly Artifact[],
  index: number,
  edit: (line: Json) => Json | undefined,
): Artifact[] {
  return editJsonLine(from, ACP, (product) => product.id === productAt(catalog, index).id, edit);
}

describe('the feeds held to the catalog offers', () => {
  it('when feed.xml items differ on link, price, currency, sale price and availability or name no variant then each is said', () => {
    let broken = editFeedItem(artifacts, 3, (item) => item.replace(url(3), `${url(3)}-old`));
    broken = editFeedItem(broken, 5, (item) => item.replace('<g:price>42.00 USD', '<g:price>41.5 USD'));
    broken = editFeedItem(broken, 7, (item) => item.replace('<g:price>42.00 USD', '<g:price>42.0 EUR'));
    broken = editFeedItem(broken, 9, (item) =>
      item.replace('</g:price>', '</g:price>\n      <g:sale_price>40.00 USD</g:sale_price>'),
    );
    broken = editFeedItem(broken, 11, (item) => item.replace('>in_stock<', '>out_of_stock<'));
    broken = editFeedItem(broken, 13, (item) => item.replace(`<g:id>${variantId(13)}<`, '<g:id>no-such<'));
    expect(messagesOf(broken, FEED)).toEqual([
      `${slug(3)} variant ${variantId(3)}: link is ${url(3)}-old, the catalog says ${url(3)}`,
      `${slug(5)} variant ${variantId(5)}: price is 41.5 USD, the catalog says 42.00 USD`,
      `${slug(7)} variant ${variantId(7)}: price is 42.0 EUR, the catalog says 42.00 USD`,
      `${slug(9)} variant ${variantId(9)}: sale price is 40.00, the catalog says none`,
      `${slug(11)} variant ${variantId(11)}: availability is out_of_stock, the catalog's in_stock maps to in_stock`,
      'variant no-such is not in the catalog',
    ]);
  });

  it("when feed.xml items state shipping the catalog's sentence does not then each is said with the catalog's", () => {
    const shipping = (price: string) =>
      `<g:shipping>\n        <g:country>US</g:country>\n        <g:price>${price}</g:price>\n      </g:shipping>`;
    let broken = editFeedItem(artifacts, 15, (item) =>
      item.replace('</g:price>', `</g:price>\n      ${shipping('9.00 USD')}`),
    );
    broken = editFeedItem(broken, 16, (item) =>
      item.replace('</g:price>', `</g:price>\n      ${shipping('nine')}`),
    );
    const sentence = String(productAt(catalog, 15).shipping);
    const said = validateArtifacts(broken)
      .filter((problem) => problem.path === FEED && problem.rule === 'consistency')
      .map((problem) => problem.message);
    expect(said).toEqual([
      `${slug(15)} variant ${variantId(15)}: g:shipping says "Ships to US: $9.00 per order.", the catalog's shipping says "${sentence}"`,
      `${slug(16)} variant ${variantId(16)}: g:shipping has no price in "12.00 USD" form`,
    ]);
  });

  it("when the catalog's variants link their own page or another then a row is held to that link", () => {
    let broken = editJson(artifacts, CATALOG, (edited) => {
      for (const [index, link] of [
        [25, `${url(25)}?variant=${variantId(25)}`],
        [26, 'https://elsewhere.example/juice'],
        [27, `${url(27)}?variant=${variantId(27)}`],
        [28, 'https://elsewhere.example/juice'],
      ] as const) {
        const [variant] = productAt(edited, index).variants as Json[];
        if (variant === undefined) throw new Error('the product has a variant');
        variant.url = link;
      }
    });
    broken = editFeedItem(broken, 27, (item) => item.replace(url(27), `${url(27)}?variant=${variantId(27)}`));
    broken = editFeedItem(broken, 28, (item) => item.replace(url(28), 'https://elsewhere.example/juice'));
    expect(messagesOf(broken, FEED)).toEqual([
      `${slug(25)} variant ${variantId(25)}: link is ${url(25)}, the catalog says ${url(25)}?variant=${variantId(25)}`,
      `${slug(26)} variant ${variantId(26)}: link is ${url(26)}, the catalog says https://elsewhere.example/juice`,
    ]);
  });

  it('when 25 feed.xml items state another price then the first 20 are said and 5 counted', () => {
    let broken: Artifact[] = [...artifacts];
    for (let index = 10; index < 35; index += 1)
      broken = editFeedItem(broken, index, (item) => item.replace('<g:price>42.00', '<g:price>1.00'));
    expect(messagesOf(broken, FEED)).toEqual([
      ...Array.from(
        { length: 20 },
        (_, at) =>
          `${slug(10 + at)} variant ${variantId(10 + at)}: price is 1.00 USD, the catalog says 42.00 USD`,
      ),
      '5 more differences not listed',
    ]);
  });

  it("when the catalog puts a variant on sale in its own words then every feed quotes the catalog's text", () => {
    const broken = editJson(artifacts, CATALOG, (edited) => {
      const [variant] = productAt(edited, 20).variants as Json[];
      if (variant === undefined) throw new Error('the product has a variant');
      variant.compare_at_price = '50.0';
      variant.availability = 'coming_soon';
    });
    const where = `${slug(20)} variant ${variantId(20)}`;
    const said = [
      `${where}: price is 42.00 USD, the catalog says 50.0 USD`,
      `${where}: sale price is none, the catalog says 42.00`,
    ];
    expect(messagesOf(broken, FEED)).toEqual([
      ...said,
      `${where}: availability is in_stock, the catalog's coming_soon maps to out_of_stock`,
    ]);
    expect(messagesOf(broken, SHARD)).toEqual([
      ...said,
      `${where}: availability is in_stock, the catalog's coming_soon maps to out_of_stock`,
    ]);
    expect(messagesOf(broken, ACP)).toEqual([
      `${where}: price is 42.00 USD, the catalog says 50.0 USD`,
      `${where}: sale price is none, the catalog says 42.00`,
      `${where}: availability is in_stock, the catalog's coming_soon maps to out_of_stock`,
    ]);
  });

  it('when OpenAI rows differ, name no variant or leave a variant with an image out then each is said', () => {
    let broken = editShardRow(artifacts, 4, (row) => ({ ...row, url: `${url(4)}?x` }));
    broken = editShardRow(broken, 6, (row) => ({ ...row, price: '43.00 USD', sale_price: '41.00 USD' }));
    broken = editShardRow(broken, 8, (row) => ({ ...row, availability: 'out_of_stock' }));
    broken = editShardRow(broken, 10, (row) => ({ ...row, item_id: 'ghost' }));
    broken = editShardRow(broken, 12, () => undefined);
    expect(messagesOf(broken, SHARD)).toEqual([
      `${slug(4)} variant ${variantId(4)}: link is ${url(4)}?x, the catalog says ${url(4)}`,
      `${slug(6)} variant ${variantId(6)}: price is 43.00 USD, the catalog says 42.00 USD`,
      `${slug(6)} variant ${variantId(6)}: sale price is 41.00, the catalog says none`,
      `${slug(8)} variant ${variantId(8)}: availability is out_of_stock, the catalog's in_stock maps to in_stock`,
      'variant ghost is not in the catalog',
    ]);
    expect(messagesOf(broken, MANIFEST)).toEqual([
      `catalog variant ${variantId(10)} (${slug(10)}) is missing from the feed`,
      `catalog variant ${variantId(12)} (${slug(12)}) is missing from the feed`,
    ]);
  });

  it('when 25 OpenAI rows state another price then 20 faults are said and the rest counted', () => {
    let broken: Artifact[] = [...artifacts];
    for (let index = 30; index < 55; index += 1)
      broken = editShardRow(broken, index, (row) => ({ ...row, price: '2.00 USD' }));
    expect(messagesOf(broken, SHARD)).toEqual(
      Array.from(
        { length: 20 },
        (_, at) =>
          `${slug(30 + at)} variant ${variantId(30 + at)}: price is 2.00 USD, the catalog says 42.00 USD`,
      ),
    );
    expect(messagesOf(broken, MANIFEST)).toEqual(['5 more faults not listed']);
  });

  it('when ACP variants differ, name no variant or a product is left out then each is said', () => {
    let broken = editAcpLine(artifacts, 2, (line) => ({
      ...line,
      variants: (line.variants as Json[]).map((variant) => ({
        ...variant,
        price: { amount: 3999, currency: 'USD' },
        list_price: { amount: 4200, currency: 'USD' },
      })),
    }));
    broken = editAcpLine(broken, 14, (line) => ({
      ...line,
      variants: (line.variants as Json[]).map((variant) => ({ ...variant, id: 'stray' })),
    }));
    broken = editAcpLine(broken, 40, () => undefined);
    expect(messagesOf(broken, ACP)).toEqual([
      `${slug(2)} variant ${variantId(2)}: sale price is 39.99, the catalog says none`,
      'variant stray is not in the catalog',
      `catalog product ${String(productAt(catalog, 40).id)} is missing from the snapshot`,
    ]);
  });

  it('when OpenAI rows repeat an item id, one in the catalog or not, then each repeat is said', () => {
    let broken = editText(artifacts, SHARD, (text) =>
      text
        .split('\n')
        .flatMap((line) => (line !== '' && JSON.parse(line).item_id === variantId(4) ? [line, line] : [line]))
        .join('\n'),
    );
    broken = editShardRow(broken, 6, (row) => ({ ...row, item_id: 'ghost' }));
    broken = editShardRow(broken, 8, (row) => ({ ...row, item_id: 'ghost' }));
    const said = validateArtifacts(broken)
      .filter((problem) => problem.path === SHARD && /appears twice|not in the catalog/.test(problem.message))
      .map((problem) => problem.message);
    expect(said).toEqual([
      `item_id ${variantId(4)} appears twice`,
      'variant ghost is not in the catalog',
      'item_id ghost appears twice',
      'variant ghost is not in the catalog',
    ]);
    expect(messagesOf(broken, MANIFEST)).toEqual([
      `catalog variant ${variantId(6)} (${slug(6)}) is missing from the feed`,
      `catalog variant ${variantId(8)} (${slug(8)}) is missing from the feed`,
    ]);
  });

  it('when ACP lines repeat a product or variant id, one in the catalog or not, then each repeat is said', () => {
    let broken = editText(artifacts, ACP, (text) =>
      text
        .split('\n')
        .flatMap((line) =>
          line !== '' && JSON.parse(line).id === productAt(catalog, 2).id ? [line, line] : [line],
        )
        .join('\n'),
    );
    for (const index of [14, 16])
      broken = editAcpLine(broken, index, (line) => ({
        ...line,
        variants: (line.variants as Json[]).map((variant) => ({ ...variant, id: 'stray' })),
      }));
    for (const index of [20, 22]) broken = editAcpLine(broken, index, (line) => ({ ...line, id: 'lost' }));
    const id = (index: number) => String(productAt(catalog, index).id);
    expect(messagesOf(broken, ACP)).toEqual([
      `product ${id(2)} appears twice`,
      `variant ${variantId(2)} appears twice`,
      'variant stray is not in the catalog',
      'variant stray appears twice',
      'variant stray is not in the catalog',
      'product lost appears twice',
      `catalog product ${id(20)} is missing from the snapshot`,
      `catalog product ${id(22)} is missing from the snapshot`,
    ]);
  });

  it("when a kb/products.json record's variant states another price then it is said with the catalog's", () => {
    const broken = editJson(artifacts, KB, (kb) => {
      const [variant] = productAt(kb, 33).variants as Json[];
      if (variant === undefined) throw new Error('the record has a variant');
      variant.price = '7.25';
    });
    expect(messagesOf(broken, KB)).toEqual([
      `${slug(33)} variant ${variantId(33)}: price is 7.25 USD, the catalog says 42.00 USD`,
    ]);
  });

  it('when two catalog products share a variant id then the later one is the offer the feeds are held to', () => {
    const broken = editJson(artifacts, CATALOG, (edited) => {
      const [variant] = productAt(edited, 30).variants as Json[];
      if (variant === undefined) throw new Error('the product has a variant');
      variant.id = variantId(19);
    });
    expect(messagesOf(broken, FEED)).toEqual([
      `${slug(30)} variant ${variantId(19)}: link is ${url(19)}, the catalog says ${url(30)}`,
      `variant ${variantId(30)} is not in the catalog`,
    ]);
    expect(messagesOf(broken, SHARD)).toEqual([
      `${slug(30)} variant ${variantId(19)}: link is ${url(19)}, the catalog says ${url(30)}`,
      `variant ${variantId(30)} is not in the catalog`,
    ]);
  });
});
