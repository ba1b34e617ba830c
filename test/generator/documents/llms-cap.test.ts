import { describe, expect, it } from 'vitest';
import { emitBundle } from '../../../generator/emit/index.js';
import { emitLlms, LLMS_FILE, readLlmsLinks } from '../../../generator/emit/llms.js';
import { LLMS_PRODUCT_LIMIT } from '../../../generator/emit/llms-sections.js';
import type { PlannedProduct } from '../../../generator/plan.js';
import { recordsOf } from '../../../generator/product-store/planned-products.js';
import { validateArtifacts } from '../../../generator/validate/index.js';
import { recordOfSeedProduct } from '../../../record/build-record.js';
import { makeSampleConfig, makeSamplePlan, makeSampleProducts } from '../../helpers/sample-plan.js';

/** `count` copies of the sample's first product, with slugs that sort in index order. */
function manyProducts(count: number): PlannedProduct[] {
  const config = makeSampleConfig();
  const [template] = makeSampleProducts(config);
  if (template === undefined) throw new Error('no sample product');
  return Array.from({ length: count }, (_, index) => {
    const slug = `juice-${String(index).padStart(5, '0')}`;
    const url = `${config.site_url}/products/${slug}`;
    const id = String(index + 1);
    const image = template.record.images[0];
    return {
      ...template,
      sourceId: id,
      // Each copy is its own product: its own id, and so its own variant id.
      record: recordOfSeedProduct(
        { ...template.record, name: `Juice ${index}`, slug, url, purchase_url: url },
        id,
        image === undefined ? {} : { imageUrl: image.url },
      ),
    };
  });
}

function productLinks(count: number) {
  const plan = makeSamplePlan({ products: manyProducts(count) });
  const body = emitLlms(plan).find((artifact) => artifact.path === LLMS_FILE)?.body ?? '';
  return { plan, body, links: readLlmsLinks(body).filter((link) => link.section === 'Products') };
}

describe('the llms.txt product list', () => {
  it('when the catalog has exactly the limit then every product is listed and nothing else', () => {
    const { plan, links } = productLinks(LLMS_PRODUCT_LIMIT);
    expect(links.map((link) => link.url)).toEqual(
      [...recordsOf(plan.products)].map((product) => product.url),
    );
  });

  it('when the catalog is larger than the limit then the first products are listed and the catalog and knowledge base are linked for the rest', () => {
    const { plan, links, body } = productLinks(2_000);
    const products = [...recordsOf(plan.products)].map((product) => product.url);
    expect(links.slice(0, LLMS_PRODUCT_LIMIT).map((link) => link.url)).toEqual(
      products.slice(0, LLMS_PRODUCT_LIMIT),
    );
    const pointers = links.slice(LLMS_PRODUCT_LIMIT).map((link) => new URL(link.url).pathname);
    expect(pointers).toEqual(['/agent-catalog', expect.stringMatching(/^\/kb\/.+-knowledge-base\.md$/)]);
    const small = productLinks(LLMS_PRODUCT_LIMIT).body;
    expect(Buffer.byteLength(body)).toBeLessThan(Buffer.byteLength(small) + 1_000);
  });

  it('when the list is capped then the bundle still passes the gate', () => {
    const artifacts = emitBundle(makeSamplePlan({ products: manyProducts(LLMS_PRODUCT_LIMIT + 50) }));
    expect(validateArtifacts(artifacts)).toEqual([]);
  });
});
