/**
 * Words that fit the merchant: every sentence of the bundle that describes the catalog
 * names only what this store's products carry. A store of clothing, guides and rope gets
 * no food word anywhere a person or an agent reads prose (the text documents, every JSON
 * string value outside the API description's fixed component schemas, the documentation
 * page outside its code blocks); the juice sample still promises ingredients and
 * nutrition. Field names (JSON keys, `<code>`) are identifiers, not promises, and the
 * seed's fields are in every record.
 */
import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import {
  collectCatalogFields,
  describeCatalogFacts,
  describeCatalogFields,
} from '../../../generator/emit/catalog-fields.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { makeSamplePlan, makeVariedPlan } from '../../helpers/sample-plan.js';

const FOOD_WORDS = /\b(ingredients?|nutrition(al)?|flavou?rs?|calories|juices?|sugar)\b/i;

/** Every string value of a JSON document (never its keys), the OpenAPI component schemas left out. */
function jsonStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const entry of value) jsonStrings(entry, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, entry] of Object.entries(value)) if (key !== 'components') jsonStrings(entry, out);
  }
  return out;
}

/** The text of an artifact a reader takes as prose. */
function proseOf(artifact: Artifact): string {
  if (artifact.path.endsWith('.json')) return jsonStrings(JSON.parse(artifact.body)).join('\n');
  if (artifact.path.endsWith('.html')) {
    return artifact.body.replace(/<pre[\s\S]*?<\/pre>/g, '').replace(/<code>[\s\S]*?<\/code>/g, '');
  }
  return artifact.body;
}

function foodWordsIn(artifacts: readonly Artifact[]): { path: string; word: string }[] {
  return artifacts.flatMap((artifact) => {
    const match = FOOD_WORDS.exec(proseOf(artifact));
    return match === null ? [] : [{ path: artifact.path, word: match[0] }];
  });
}

function bodyOf(artifacts: readonly Artifact[], path: string): string {
  return artifacts.find((artifact) => artifact.path === path)?.body ?? '';
}

describe('words that fit the merchant', () => {
  it('when the store sells no food then no food word appears in any document of the bundle', () => {
    const artifacts = emitBundle(makeVariedPlan());
    expect(artifacts.length).toBeGreaterThan(10);
    expect(foodWordsIn(artifacts)).toEqual([]);
  });

  it('when the store sells juice then llms.txt, the agent card, the API description and its page still promise ingredients and nutrition', () => {
    const artifacts = emitBundle(makeSamplePlan());
    const card = JSON.parse(bodyOf(artifacts, '.well-known/agent-card.json')) as {
      skills: { description: string }[];
    };
    const openapi = JSON.parse(bodyOf(artifacts, 'api/openapi.json')) as { info: { description: string } };
    for (const text of [
      bodyOf(artifacts, 'llms.txt'),
      card.skills[0]?.description ?? '',
      openapi.info.description,
      proseOf({ path: 'api/index.html', mediaType: '', body: bodyOf(artifacts, 'api/index.html') }),
    ]) {
      expect(text).toMatch(/ingredients/);
      expect(text).toMatch(/nutrition/);
    }
  });

  it('describes a store of variants by its option names, sale prices, brands and images', () => {
    const phrase = describeCatalogFacts(describeCatalogFields(makeVariedPlan()));
    expect(phrase).toBe(
      'price, availability, variants (length, size or colour), sale prices, brand, images and packaging',
    );
    const bundle = emitBundle(makeVariedPlan());
    expect(bodyOf(bundle, 'llms.txt')).toContain(phrase);
  });

  it('counts a seed field only when a product has a value for it (an empty list or object is none)', () => {
    const [record] = [...makeSamplePlan().products].map((product) => product.record);
    if (record === undefined) throw new Error('no product');
    const empty = {
      ...record,
      ingredients: [],
      nutrition: {},
      benefits: null,
      certifications: [],
      flavor: ' ',
    };
    expect(collectCatalogFields([empty])).toMatchObject({
      ingredients: false,
      nutrition: false,
      benefits: false,
      certifications: false,
      flavor: false,
      packaging: true,
    });
  });
});
